"""``numpy.linalg``: full templates over stacks of matrices (see
``srcgrad.runtime.linalg_adjoints`` for the formulas and their sources).

Rows whose result is a tuple (``slogdet``, ``eigh``, ``svd``...) receive a cotangent
with one entry per item, zeros for the items the program did not use.
"""

import numpy as np

from srcgrad.rules.registry import defadjoint, defconstant, defrefuses

la = np.linalg

defadjoint(la.det, "a", a="_sg.det_adjoint(g, a, ans)",
           tangent={"a": "_sg.det_tangent(a_dot, a, ans)"})
defadjoint(la.slogdet, "a", a="_sg.slogdet_adjoint(g, a, ans)",
           tangent={"a": "_sg.slogdet_tangent(a_dot, a, ans)"})
defadjoint(la.inv, "a", a="_sg.inv_adjoint(g, ans)", tangent={"a": "-ans @ a_dot @ ans"})
defadjoint(la.pinv, "a, rcond=None, hermitian=False, rtol=None",
           a="_sg.pinv_adjoint(g, a, ans)", tangent={"a": "_sg.pinv_tangent(a_dot, a, ans)"})
defadjoint(la.solve, "a, b", a="_sg.solve_adjoint_a(g, a, b, ans)",
           b="_sg.solve_adjoint_b(g, a, b)",
           tangent={"a": "-np.linalg.solve(a, a_dot @ ans)",
                    "b": "np.linalg.solve(a, b_dot)"})
defadjoint(la.norm, "x, ord=None, axis=None, keepdims=False",
           x="_sg.norm_adjoint(g, x, ans, ord, axis, keepdims)",
           tangent={"x": "_sg.norm_tangent(x_dot, x, ans, ord, axis, keepdims)"})
defadjoint(la.matrix_power, "a, n", a="_sg.matrix_power_adjoint(g, a, n)",
           tangent={"a": "_sg.matrix_power_tangent(a_dot, a, n)"})
defadjoint(la.multi_dot, "arrays, out=None", arrays="_sg.multi_dot_adjoint(g, arrays)",
           tangent={"arrays": "_sg.multi_dot_tangent(arrays_dot, arrays)"})

# Factorizations and spectra.
defadjoint(la.eigh, "a, UPLO='L'", a="_sg.eigh_adjoint(g, ans, UPLO)",
           tangent={"a": "_sg.eigh_tangent(a_dot, ans, UPLO)"})
defadjoint(la.eigvalsh, "a, UPLO='L'", a="_sg.eigvalsh_adjoint(g, a, UPLO)",
           tangent={"a": "_sg.eigvalsh_tangent(a_dot, a, UPLO)"})
defadjoint(la.eig, "a", a="_sg.eig_adjoint(g, a, ans)",
           tangent={"a": "_sg.eig_tangent(a_dot, ans)"})
defadjoint(la.eigvals, "a", a="_sg.eigvals_adjoint(g, a)",
           tangent={"a": "_sg.eigvals_tangent(a_dot, a)"})
defadjoint(la.cholesky, "a, upper=False", a="_sg.cholesky_adjoint(g, ans, upper)",
           tangent={"a": "_sg.cholesky_tangent(a_dot, ans, upper)"})
defadjoint(la.svd, "a, full_matrices=True, compute_uv=True, hermitian=False",
           a="_sg.svd_adjoint(g, a, ans, full_matrices, compute_uv)",
           tangent={"a": "_sg.svd_tangent(a_dot, a, ans, full_matrices, compute_uv)"})
defadjoint(la.svdvals, "x", x="_sg.svd_adjoint(g, x, ans, False, False)",
           tangent={"x": "_sg.svd_tangent(x_dot, x, ans, False, False)"})
defadjoint(la.qr, "a, mode='reduced'", a="_sg.qr_adjoint(g, ans, mode)",
           tangent={"a": "_sg.qr_tangent(a_dot, ans, mode)"})
# A tuple result: the two tangent terms are added item by item (``structured``).
defadjoint(la.lstsq, "a, b, rcond=None", a="_sg.lstsq_adjoints(g, a, b, ans)[0]",
           b="_sg.lstsq_adjoints(g, a, b, ans)[1]", structured=True,
           tangent={"a": "_sg.lstsq_tangent(a_dot, None, a, b, ans)",
                    "b": "_sg.lstsq_tangent(None, b_dot, a, b, ans)"})

_CUTOFF = "a cutoff for small singular values: the result is locally constant in it"
defconstant(la.pinv, rcond=_CUTOFF, rtol=_CUTOFF)
defconstant(la.lstsq, rcond=_CUTOFF)
defrefuses(la.norm, "ord")
