# sg.source(sg.grad(tests.corpus.control.while_halving, wrt=0))
def while_halving_grad(x):
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    x_entry = x
    steps = 0
    _cond = x > 1.0
    n_iterations = 0
    while _cond:
        n_iterations += 1
        _div = x / 2.0
        x = _div
        _add = steps + 1
        steps = _add
        _cond = x > 1.0
    _mul = x * x
    _add_1 = _mul + steps
    # Backward sweep: d_add_1 is the cotangent of the result
    d_add_1 = _sg.seed(_add_1)
    dx = d_add_1 * x * 2.0
    for _ in range(n_iterations):
        dx = dx / 2.0
    return _sg.in_dtype_of(dx, x_entry)
