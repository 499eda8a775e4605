# sg.source(sg.grad(tests.corpus.arithmetic.reassigned, wrt=0))
def reassigned_grad(x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return reassigned_grad_scalars(x)
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    y = x * 2.0
    y_1 = y * y
    y_2 = y_1 + x
    y_1 = _sg.shape_of(y_1)
    y_3 = np.tanh(y_2)
    # Backward sweep: dy_3 is the cotangent of the result
    dy_3 = _sg.seed(y_3)
    dy_2 = dy_3 * (1 - y_3 * y_3)
    dy_1 = _sg.unbroadcast(dy_2, y_1)
    dx = _sg.unbroadcast(dy_2, x)
    dy = dy_1 * y * 2.0
    dx = _sg.add_cotangents(dx, dy * 2.0)
    return _sg.in_dtype_of(dx, x)
