"""Test rows for numpy.linalg. Losses on eigenvectors and singular vectors are invariant
to their sign (``abs``) so that finite differences see a smooth function."""

import numpy as np

from tests.rules.harness import In, const, normal, row, spd, wellcond

la = np.linalg


def rotation_like():
    """A real matrix with a complex pair of eigenvalues and a real one, well apart."""
    def make(rng):
        a = np.array([[0.5, -2.0, 0.0], [2.0, 0.5, 0.0], [0.0, 0.0, 3.0]])
        return a + 0.1 * rng.standard_normal((3, 3))
    return In(make, label="rotation(3, 3)")

ROWS = [
    row("numpy.linalg.det", lambda a: la.det(a), wellcond(3, 3)),
    row("numpy.linalg.det", lambda a: la.det(a), wellcond(2, 3, 3), note="batched"),
    row("numpy.linalg.slogdet", lambda a: la.slogdet(a)[1], wellcond(3, 3)),
    row("numpy.linalg.inv", lambda a: la.inv(a), wellcond(3, 3)),
    row("numpy.linalg.inv", lambda a: la.inv(a), wellcond(2, 3, 3), note="batched"),
    row("numpy.linalg.pinv", lambda a: la.pinv(a), normal(4, 3)),
    row("numpy.linalg.pinv", lambda a: la.pinv(a), normal(2, 3), note="wide"),
    row("numpy.linalg.solve", lambda a, b: la.solve(a, b), wellcond(3, 3), normal(3)),
    row("numpy.linalg.solve", lambda a, b: la.solve(a, b), wellcond(2, 3, 3), normal(2, 3, 2),
        note="batched"),
    row("numpy.linalg.norm", lambda x: la.norm(x), normal(2, 3)),
    row("numpy.linalg.norm", lambda x: la.norm(x, 3, axis=1), normal(2, 3), note="p=3"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 1), normal(4), note="p=1"),
    row("numpy.linalg.norm", lambda x: la.norm(x, np.inf, keepdims=True), normal(4),
        note="inf"),
    row("numpy.linalg.norm", lambda x: la.norm(x, "fro", axis=(1, 2)), normal(2, 3, 2),
        note="fro"),
    row("numpy.linalg.norm", lambda x: la.norm(x, "nuc"), normal(3, 2), note="nuc"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 2, axis=(0, 1)), normal(3, 3), note="spectral"),
    row("numpy.linalg.norm", lambda x: la.norm(x, axis=0, keepdims=True), normal(3, 2),
        note="axis 0, keepdims"),
    row("numpy.linalg.norm", lambda x: la.norm(x, "nuc", axis=(2, 0)), normal(3, 2, 2),
        note="nuc, batched, axes moved"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 4), normal(5), note="p=4"),
    row("numpy.linalg.norm", lambda x: la.norm(x, -np.inf), normal(4), note="-inf"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 0.5), normal(4), note="p=1/2"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 0), normal(4), note="p=0, a count"),
    row("numpy.linalg.norm", lambda x: la.norm(x, -2), normal(3, 3),
        note="smallest singular value"),
    row("numpy.linalg.norm", lambda x: la.norm(x, np.inf, axis=(1, 0)), normal(3, 4),
        note="max row sum, axes swapped"),
    row("numpy.linalg.norm", lambda x: la.norm(x, 1, axis=(0, 1)), normal(3, 4),
        note="max column sum"),
    row("numpy.linalg.norm", lambda x: la.norm(x, -1, axis=(0, 2)), normal(3, 2, 4),
        note="min column sum, batched"),
    row("numpy.linalg.norm", lambda x: la.norm(x, -np.inf), normal(4, 3), note="min row sum"),
    row("numpy.linalg.matrix_power", lambda a: la.matrix_power(a, 1), normal(2, 2, 2),
        note="first, batched"),
    row("numpy.linalg.matrix_power", lambda a: la.matrix_power(a, 3), normal(3, 3)),
    row("numpy.linalg.matrix_power", lambda a: la.matrix_power(a, -2), wellcond(3, 3),
        note="negative"),
    row("numpy.linalg.multi_dot", lambda a, b, c: la.multi_dot([a, b, c]), normal(3),
        normal(3, 4), normal(4, 2)),
    row("numpy.linalg.eigh", lambda a: la.eigh(a)[0], spd(3)),
    row("numpy.linalg.eigh", lambda a: np.abs(la.eigh(a)[1]), spd(3), note="vectors"),
    row("numpy.linalg.eigh", lambda a: np.abs(la.eigh(a, UPLO="U")[1]), spd(2, (2,)),
        note="upper, batched"),
    row("numpy.linalg.eigh", lambda a: (la.eigh(a)[0], np.abs(la.eigh(a)[1])), spd(3),
        note="values and |vectors|"),
    row("numpy.linalg.eigvalsh", lambda a: la.eigvalsh(a), spd(3)),
    row("numpy.linalg.eig", lambda a: la.eig(a)[0], spd(3), note="real spectrum"),
    row("numpy.linalg.eig", lambda a: np.abs(la.eig(a)[1]), spd(3), note="vectors"),
    row("numpy.linalg.eigvals", lambda a: la.eigvals(a), spd(3)),
    row("numpy.linalg.eigvals", lambda a: la.eigvals(a), rotation_like(), note="complex"),
    row("numpy.linalg.eigvalsh", lambda a: la.eigvalsh(a, UPLO="U"), spd(3, (2,)),
        note="upper, batched"),
    row("numpy.linalg.cholesky", lambda a: la.cholesky(a), spd(3)),
    row("numpy.linalg.cholesky", lambda a: la.cholesky(a, upper=True), spd(3, (2,)),
        note="upper, batched"),
    row("numpy.linalg.svd", lambda a: la.svd(a, compute_uv=False), normal(3, 2)),
    row("numpy.linalg.svd", lambda a: np.abs(la.svd(a, full_matrices=False)[0]), normal(4, 3),
        note="u, tall"),
    row("numpy.linalg.svd", lambda a: np.abs(la.svd(a, full_matrices=False)[2]), normal(2, 4),
        note="vh, wide"),
    row("numpy.linalg.svd", lambda a: la.svd(a)[1], normal(3, 3), note="s, square"),
    row("numpy.linalg.svd", lambda a: np.abs(la.svd(a)[0]) + np.abs(la.svd(a)[2]),
        normal(2, 3, 3), note="u and vh, square, batched"),
    row("numpy.linalg.svdvals", lambda x: la.svdvals(x), normal(2, 3)),
    row("numpy.linalg.svd", lambda a: la.svd(a, full_matrices=False, compute_uv=False),
        normal(5, 3), note="values, tall"),
    row("numpy.linalg.qr", lambda a: la.qr(a), normal(4, 3)),
    row("numpy.linalg.qr", lambda a: la.qr(a)[1], normal(3, 3), note="r, square"),
    row("numpy.linalg.qr", lambda a: la.qr(a, mode="complete"), normal(2, 3, 3),
        note="complete, square, batched"),
    row("numpy.linalg.lstsq", lambda a, b: la.lstsq(a, b)[0], normal(5, 3), normal(5)),
    row("numpy.linalg.lstsq", lambda a, b: la.lstsq(a, b)[:2], normal(5, 2), normal(5, 2),
        note="residuals"),
    row("numpy.linalg.lstsq", lambda a, b: la.lstsq(a, b)[3], normal(4, 3), const(np.ones(4)),
        note="singular values"),
]
