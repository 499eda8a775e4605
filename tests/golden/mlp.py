# sg.source(sg.grad(tests.corpus.arrays.mlp, wrt=(0, 1, 2)))
def mlp_grad(w1, b1, w2, x):
    _sg.check_array_types(w1, b1, w2, x)
    # Forward sweep: the original computation
    _matmul = x @ w1
    _add = _sg.sum_into(_matmul, _matmul, b1)
    _matmul = _sg.shape_of(_matmul)
    h = np.tanh(_add)
    _matmul_1 = h @ w2
    _pow = _matmul_1 ** 2
    _sum = np.sum(_pow)
    _pow = _sg.shape_of(_pow)
    # Backward sweep: d_sum is the cotangent of the result
    d_sum = _sg.seed(_sum)
    d_pow = _sg.expand_summed(d_sum, _pow, None, False)
    d_matmul_1 = _sg.spread_to(d_pow * 2 * _matmul_1, _pow)
    del _matmul_1
    dh = _sg.matmul_adjoint_a(d_matmul_1, h, w2)
    dw2 = _sg.matmul_adjoint_b(d_matmul_1, h, w2)
    d_add = dh * (1 - h * h)
    del h
    d_matmul = _sg.unbroadcast(d_add, _matmul)
    db1 = _sg.unbroadcast(d_add, b1)
    dw1 = _sg.matmul_adjoint_b(d_matmul, x, w1)
    return (_sg.in_dtype_of(dw1, w1), _sg.in_dtype_of(db1, b1), _sg.in_dtype_of(dw2, w2))
