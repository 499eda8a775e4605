# sg.source(sg.grad(tests.corpus.control.loop_over_array, wrt=0))
def loop_over_array_grad(x):
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    v = None
    stack = []
    total = 0.0
    n_iterations = 0
    for v in x:
        n_iterations += 1
        _mul = v * v
        _sin = np.sin(v)
        _mul_1 = _mul * _sin
        _add = total + _mul_1
        stack.append(_sg.shape_of(total))
        total = _add
        stack.append(_mul)
        stack.append(_sin)
        stack.append(_sg.shape_of(_mul_1))
        stack.append(v)
    # Backward sweep: dtotal is the cotangent of the result
    dtotal = _sg.seed(total)
    dx = _sg.slots_like(x)
    for i in reversed(range(n_iterations)):
        v = stack.pop()
        _mul_1 = stack.pop()
        _sin = stack.pop()
        _mul = stack.pop()
        d_add = dtotal
        total = stack.pop()
        dtotal = _sg.unbroadcast(d_add, total)
        d_mul_1 = _sg.unbroadcast(d_add, _mul_1)
        d_mul = _sg.unbroadcast_product(d_mul_1, _sin, _mul)
        d_sin = _sg.unbroadcast_product(d_mul_1, _mul, _sin)
        dv = d_sin * np.cos(v)
        dv = _sg.add_cotangents(dv, d_mul * v * 2.0)
        _sg.add_at(dx, i, dv)
    return _sg.in_dtype_of(_sg.restructure(dx, x), x)
