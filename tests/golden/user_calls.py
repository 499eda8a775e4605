# sg.source(sg.grad(tests.corpus.calls.helper_chain, wrt=0))
def helper_chain_grad(x):
    # Forward sweep: the original computation
    y, square_saved = square_forward(x)
    z, affine_saved = affine_forward(y, x)
    _square, square_saved_1 = square_forward(z)
    # Backward sweep: d_square is the cotangent of the result
    d_square = _sg.seed(_square)
    dx_square = square_backward(square_saved_1, d_square)
    dz = dx_square
    dx_affine, dw_affine = affine_backward(affine_saved, dz)
    dx_square_1 = square_backward(square_saved, dx_affine)
    dx = dw_affine + dx_square_1
    return dx
