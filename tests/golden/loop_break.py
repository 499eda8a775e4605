# sg.source(sg.grad(tests.corpus.control.loop_break, wrt=0))
def loop_break_grad(x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return loop_break_grad_scalars(x)
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    stack = []
    acc = 0.0
    stop_loop = False
    n_iterations = 0
    for i in range(10):
        n_iterations += 1
        _mul = x * i
        _add = acc + _mul
        stack.append(_sg.shape_of(acc))
        acc = _add
        _cond = acc > 5.0
        if _cond:
            stop_loop = True
        stack.append(_sg.shape_of(_mul))
        if stop_loop:
            break
    retval = acc
    # Backward sweep: dretval is the cotangent of the result
    dretval = _sg.seed(retval)
    dacc = dretval
    dx = _sg.zeros_like(x)
    for i in reversed(range(10)[:n_iterations]):
        _mul = stack.pop()
        d_add = dacc
        acc = stack.pop()
        dacc = _sg.unbroadcast(d_add, acc)
        d_mul = _sg.unbroadcast(d_add, _mul)
        dx = _sg.add_into(dx, _sg.unbroadcast_product(d_mul, i, x))
    return _sg.in_dtype_of(dx, x)
