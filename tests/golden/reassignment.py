# sg.source(sg.grad(tests.corpus.arithmetic.reassigned, wrt=0))
def reassigned_grad(x):
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return reassigned_grad_scalars(x)
    # Forward sweep: the original computation
    stack = []
    y = x * 2.0
    _mul = y * y
    stack.append(y)
    y = _mul
    _add = y + x
    stack.append(y)
    y = _add
    _tanh = np.tanh(y)
    stack.append(y)
    y = _tanh
    # Backward sweep: dy is the cotangent of the result
    dy = _sg.seed(y)
    y = stack.pop()
    dy = dy * (1 - _tanh ** 2)
    d_add = dy
    y = stack.pop()
    dy = _sg.unbroadcast(d_add, y)
    dx = _sg.unbroadcast(d_add, x)
    d_mul = dy
    y = stack.pop()
    dy = d_mul * y + d_mul * y
    dx = dx + dy * 2.0
    return dx
