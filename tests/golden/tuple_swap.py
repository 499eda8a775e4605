# sg.source(sg.grad(tests.corpus.containers.swap, wrt=(0, 1)))
def swap_grad(x, y):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x, y):
        return swap_grad_scalars(x, y)
    _sg.check_array_types(x, y)
    # Forward sweep: the original computation
    _mul = x * 2.0
    x_1 = y
    y_1 = _mul
    _mul_1 = x_1 * y_1
    _add = _mul_1 + x_1
    _mul_1 = _sg.shape_of(_mul_1)
    # Backward sweep: d_add is the cotangent of the result
    d_add = _sg.seed(_add)
    d_mul_1 = _sg.unbroadcast(d_add, _mul_1)
    dx_1 = _sg.unbroadcast(d_add, x_1)
    dx_1 = _sg.add_cotangents(dx_1, _sg.unbroadcast_product(d_mul_1, y_1, x_1))
    dy_1 = _sg.unbroadcast_product(d_mul_1, x_1, y_1)
    dy = dx_1
    dx = dy_1 * 2.0
    return (_sg.in_dtype_of(dx, x), _sg.in_dtype_of(dy, y))
