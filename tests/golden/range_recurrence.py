# sg.source(sg.grad(tests.corpus.control.recurrence, wrt=(0, 1)))
def recurrence_grad(w, x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(w, x):
        return recurrence_grad_scalars(w, x)
    _sg.check_array_types(w, x)
    # Forward sweep: the original computation
    stack = []
    h = x
    for _ in range(5):
        _mul = w * h
        _add = _mul + 0.1
        stack.append(h)
        h = np.tanh(_add)
    # Backward sweep: dh is the cotangent of the result
    dh = _sg.seed(h)
    dw = _sg.zeros_like(w)
    for _ in reversed(range(5)):
        d_add = dh * (1 - h * h)
        h = stack.pop()
        d_mul = d_add
        dw = _sg.add_into(dw, _sg.unbroadcast_product(d_mul, h, w))
        dh = _sg.unbroadcast_product(d_mul, w, h)
    dx = dh
    return (_sg.in_dtype_of(dw, w), _sg.in_dtype_of(dx, x))
