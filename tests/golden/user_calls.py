# sg.source(sg.grad(tests.corpus.calls.helper_chain, wrt=0))
def helper_chain_grad(x):
    # Guard: the names this code was generated from still denote the same objects
    if affine is not _assumed_affine or affine.__code__ is not _assumed_affine___code__ or affine.__defaults__ is not _assumed_affine___defaults__:
        return _sg.regenerated(helper_chain_grad)(x)
    if square is not _assumed_square or square.__code__ is not _assumed_square___code__:
        return _sg.regenerated(helper_chain_grad)(x)
    # Every argument a scalar: the specialized version (no broadcasting)
    if _sg.all_scalars(x):
        return helper_chain_grad_scalars(x)
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    y = x * x
    _mul = x * y
    z = _mul + 0.5
    square_result = z * z
    # Backward sweep: dsquare_result is the cotangent of the result
    dsquare_result = _sg.seed(square_result)
    dz = dsquare_result * z * 2.0
    d_mul = dz
    dx = _sg.unbroadcast_product(d_mul, y, x)
    dy = _sg.unbroadcast_product(d_mul, x, y)
    dx = _sg.add_cotangents(dx, dy * x * 2.0)
    return _sg.in_dtype_of(dx, x)
