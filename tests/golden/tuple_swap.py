# sg.source(sg.grad(tests.corpus.containers.swap, wrt=(0, 1)))
def swap_grad(x, y):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x, y):
        return swap_grad_scalars(x, y)
    # Forward sweep: the original computation
    _mul = x * 2.0
    x = y
    y = _mul
    _mul_1 = x * y
    _add = _mul_1 + x
    # Backward sweep: d_add is the cotangent of the result
    d_add = _sg.seed(_add)
    d_mul_1 = _sg.unbroadcast(d_add, _mul_1)
    dx = _sg.unbroadcast(d_add, x)
    dx = dx + _sg.unbroadcast(d_mul_1 * y, x)
    dy = _sg.unbroadcast(d_mul_1 * x, y)
    d_mul = dy
    dy = dx
    dx = d_mul * 2.0
    return (dx, dy)
