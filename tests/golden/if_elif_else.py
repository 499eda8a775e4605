# sg.source(sg.grad(tests.corpus.control.piecewise, wrt=0))
def piecewise_grad(x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return piecewise_grad_scalars(x)
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    _cond = x < -1.0
    if _cond:
        _neg = -x
        y = _neg - 0.5
    else:
        _cond_1 = x < 1.0
        if _cond_1:
            _mul = 0.5 * x
            y = _mul * x
        else:
            y = x - 0.5
    _mul_1 = y * y
    # Backward sweep: d_mul_1 is the cotangent of the result
    d_mul_1 = _sg.seed(_mul_1)
    dy = d_mul_1 * y * 2.0
    if _cond:
        dx = -dy
    elif _cond_1:
        d_mul = _sg.unbroadcast_product(dy, x, _mul)
        dx = _sg.unbroadcast_product(dy, _mul, x)
        dx = _sg.add_cotangents(dx, d_mul * 0.5)
    else:
        dx = dy
    return _sg.in_dtype_of(dx, x)
