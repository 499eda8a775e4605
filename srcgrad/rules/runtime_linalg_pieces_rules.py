"""Rows for the pieces ``numpy.linalg``'s factorization rows are written with
(``srcgrad.runtime.linalg_pieces``): each is linear in its first argument (over the
reals where it conjugates) and its transpose is another piece, except ``eigen_gaps``
(``F = 1 / D(w)`` off the diagonal, ``dF = -F o F o D(dw)``).

A transpose that conjugates or keeps a real part is kept real for a real operand
(``_sg.match_real``): a real matrix's cotangent is real.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, deflinear, defnondiff

defnondiff(rt.uplo_of)

deflinear(rt.symmetric_from, "m, uplo, hermitian=True",
          "_sg.match_real(_sg.triangle_cotangent(g, uplo, hermitian), m)", linear_in="m")
deflinear(rt.triangle_cotangent, "m, uplo, hermitian=True",
          "_sg.match_real(_sg.symmetric_from(g, uplo, hermitian), m)", linear_in="m")
deflinear(rt.diag_embed, "d", "np.diagonal(g, 0, -2, -1)", linear_in="d")
deflinear(rt.imag_diagonal, "m", "_sg.match_real(_sg.imag_diagonal(g), m)", linear_in="m")
deflinear(rt.lower_factor, "m, upper", "_sg.match_real(_sg.lower_factor(g, upper), m)",
          linear_in="m")
deflinear(rt.tril_half, "m", "_sg.tril_half(g)", linear_in="m")
deflinear(rt.pairwise_difference, "w", "_sg.pairwise_difference_transpose(g)", linear_in="w")
deflinear(rt.pairwise_difference_transpose, "g_", "_sg.pairwise_difference(g)",
          linear_in="g_")
defadjoint(rt.eigen_gaps, "w",
           w="_sg.match_real(_sg.pairwise_difference_transpose(-g * ans * ans), w)",
           tangent={"w": "-ans * ans * _sg.pairwise_difference(w_dot)"})

# a check of the factorization ``ans``, and ``v`` itself
defadjoint(rt.qr_checked, "v, ans_, mode", tangent="linear", v="g")
deflinear(rt.skew_hermitian, "m", "_sg.match_real(_sg.skew_hermitian(g), m)", linear_in="m")
defadjoint(rt.checked_singular_values, "s, a, full_matrices", tangent="linear", s="g")

# A tuple of tangents in the structure of a factorization's result.
defadjoint(rt.result_like, "like, first, second, third=None, fourth=None", tangent="linear",
           **{item: f"_sg.restructure(g, like)[{i}]"
              for i, item in enumerate(("first", "second", "third", "fourth"))})

# [[a, t], [0, a]]: a matrix power of it carries the power's derivative along t.
defadjoint(rt.block_upper, "a, t", tangent="linear", a="_sg.block_diagonal_sum(g)",
           t="_sg.block_upper_right(g)")
deflinear(rt.block_diagonal_sum, "m", "_sg.block_upper(g, np.zeros_like(g))", linear_in="m")
deflinear(rt.block_upper_right, "m", "_sg.block_upper(np.zeros_like(g), g)", linear_in="m")

# lstsq's right-hand side as columns, and its residuals' weights.
deflinear(rt.as_columns, "v, b", "_sg.from_columns(g, b)", linear_in="v")
deflinear(rt.from_columns, "m, b", "_sg.as_columns(g, b)", linear_in="m")
deflinear(rt.residual_weights, "w, residuals, columns",
          "_sg.residual_weights_transpose(g, residuals, columns)", linear_in="w")
deflinear(rt.residual_weights_transpose, "w, residuals, columns",
          "_sg.residual_weights(g, residuals, columns)", linear_in="w")
