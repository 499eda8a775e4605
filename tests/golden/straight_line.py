# sg.source(sg.grad(tests.corpus.arithmetic.elementwise_chain, wrt=0))
def elementwise_chain_grad(x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return elementwise_chain_grad_scalars(x)
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    _neg = -x
    _mul = _neg * x
    _exp = np.exp(_mul)
    _mul_1 = 3.0 * x
    _sin = np.sin(_mul_1)
    _mul_2 = _exp * _sin
    _pow = x ** 2
    _log1p = np.log1p(_pow)
    _add = _mul_2 + _log1p
    _log1p = _sg.shape_of(_log1p)
    _mul_2 = _sg.shape_of(_mul_2)
    _sum = np.sum(_add)
    _add = _sg.shape_of(_add)
    # Backward sweep: d_sum is the cotangent of the result
    d_sum = _sg.seed(_sum)
    d_add = _sg.sum_adjoint(d_sum, _add, None, False)
    d_mul_2 = _sg.unbroadcast(d_add, _mul_2)
    d_log1p = _sg.unbroadcast(d_add, _log1p)
    d_pow = d_log1p / (1 + _pow)
    dx = d_pow * 2 * x
    d_exp = _sg.unbroadcast_product(d_mul_2, _sin, _exp)
    d_sin = _sg.unbroadcast_product(d_mul_2, _exp, _sin)
    d_mul_1 = d_sin * np.cos(_mul_1)
    dx = _sg.add_cotangents(dx, d_mul_1 * 3.0)
    d_mul = d_exp * _exp
    d_neg = _sg.unbroadcast_product(d_mul, x, _neg)
    dx = _sg.add_cotangents(dx, _sg.unbroadcast_product(d_mul, _neg, x))
    dx = _sg.add_cotangents(dx, -d_neg)
    return _sg.in_dtype_of(dx, x)
