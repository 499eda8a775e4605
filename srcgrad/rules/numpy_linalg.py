"""``numpy.linalg``: full templates over stacks of matrices (see
``srcgrad.runtime.linalg_adjoints`` for the formulas and their sources).

Rows whose result is a tuple (``slogdet``, ``eigh``, ``svd``...) receive a cotangent
with one entry per item, zeros for the items the program did not use.
"""

import numpy as np

from srcgrad.rules import linalg_templates as lt
from srcgrad.rules.registry import defadjoint, defconstant, defrefuses

la = np.linalg

defadjoint(la.det, "a", a="_sg.det_adjoint(g, a, ans)",
           tangent={"a": "_sg.det_tangent(a_dot, a, ans)"})
defadjoint(la.slogdet, "a", **lt.SLOGDET)
defadjoint(la.inv, "a", a="_sg.inv_adjoint(g, ans)", tangent={"a": "-ans @ a_dot @ ans"})
defadjoint(la.pinv, "a, rcond=None, hermitian=False, rtol=None", **lt.PINV)
defadjoint(la.solve, "a, b", a="_sg.solve_adjoint_a(g, a, b, ans)",
           b="_sg.solve_adjoint_b(g, a, b)",
           tangent={"a": "-np.linalg.solve(a, a_dot @ ans)",
                    "b": "np.linalg.solve(a, b_dot)"})
defadjoint(la.norm, "x, ord=None, axis=None, keepdims=False", **lt.NORM)
defadjoint(la.matrix_power, "a, n", **lt.MATRIX_POWER)
defadjoint(la.multi_dot, "arrays, out=None", arrays="_sg.multi_dot_adjoint(g, arrays)",
           tangent={"arrays": "_sg.multi_dot_tangent(arrays_dot, arrays)"})

# Factorizations and spectra.
defadjoint(la.eigh, "a, UPLO='L'", **lt.EIGH)
defadjoint(la.eigvalsh, "a, UPLO='L'", **lt.EIGVALSH)
defadjoint(la.eig, "a", **lt.EIG)
defadjoint(la.eigvals, "a", **lt.EIGVALS)
defadjoint(la.cholesky, "a, upper=False", **lt.cholesky("upper"))
defadjoint(la.svd, "a, full_matrices=True, compute_uv=True, hermitian=False", **lt.SVD)
defadjoint(la.svdvals, "x", **lt.SVDVALS)
defadjoint(la.qr, "a, mode='reduced'", **lt.QR)
# A tuple result: the two tangent terms are added item by item (``structured``).
defadjoint(la.lstsq, "a, b, rcond=None", **lt.LSTSQ)

_CUTOFF = "a cutoff for small singular values: the result is locally constant in it"
defconstant(la.pinv, rcond=_CUTOFF, rtol=_CUTOFF)
defconstant(la.lstsq, rcond=_CUTOFF)
defrefuses(la.norm, "ord")
