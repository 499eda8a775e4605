"""Rows for the helpers of ``scipy.stats``' multivariate rows
(``runtime.distribution_adjoints``). Each helper is linear in its cotangent (or tangent)
and the other's transpose; its partials in the primal's arguments are written with
NumPy, ``_sg.polygamma`` and the linear ``dirichlet_column`` (the concentrations as a
column along x's first axis) and its transpose.

Dirichlet, with ``C`` that column: ``d/dx log p = (C - 1) / x``, ``d/dalpha log p =
digamma(sum(alpha)) - digamma(C) + log(x)``; the second derivatives are
``-(C - 1) / x^2`` (x, x), ``1 / x`` (x, alpha) and ``trigamma(sum(alpha)) -
diag(trigamma(alpha))`` (alpha, alpha), the last the same for every sample.
"""

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, deflinear, defnondiff

deflinear(rt.dirichlet_column, "alpha, x", "_sg.dirichlet_column_adjoint(g, x)",
          linear_in="alpha")
deflinear(rt.dirichlet_column_adjoint, "v, x", "_sg.dirichlet_column(g, x)", linear_in="v")

_XA = "x, alpha"


def _column(value):
    return f"_sg.dirichlet_column({value}, x)"


def _summed(value):
    return f"_sg.dirichlet_column_adjoint({value}, x)"


_CURVE = f"({_column('alpha')} - 1) / x ** 2"     # minus d2/dx2
_SAMPLES = "np.sum({} * np.ones(np.shape(x)[1:]))"   # a weight summed over the samples
_TRIGAMMA_SUM = "_sg.polygamma(1, np.sum(alpha))"


def _alpha_hessian(weight, direction):
    """The (alpha, alpha) block applied to ``direction``, times the samples' ``weight``."""
    return (f"{_SAMPLES.format(weight)} * ({_TRIGAMMA_SUM} * np.sum({direction}) - "
            f"_sg.polygamma(1, alpha) * {direction})")


defadjoint(rt.dirichlet_adjoint_x, f"v, {_XA}",
           v=f"_sg.unbroadcast(_sg.dirichlet_tangent_x(g, {_XA}), v)",
           x=f"-(g * v * {_CURVE})", alpha=_summed("g * v / x"),
           tangent={"v": f"_sg.dirichlet_adjoint_x(v_dot, {_XA})",
                    "x": f"-(v * x_dot * {_CURVE})",
                    "alpha": f"v * {_column('alpha_dot')} / x"})
defadjoint(rt.dirichlet_tangent_x, f"t, {_XA}",
           t=f"_sg.unbroadcast(_sg.dirichlet_adjoint_x(g, {_XA}), t)",
           x=f"-(g * t * {_CURVE})", alpha=_summed("g * t / x"),
           tangent={"t": f"_sg.dirichlet_tangent_x(t_dot, {_XA})",
                    "x": f"-np.sum(t * x_dot * {_CURVE}, axis=0)",
                    "alpha": f"np.sum(t * {_column('alpha_dot')} / x, axis=0)"})
defadjoint(rt.dirichlet_adjoint_alpha, f"v, {_XA}",
           v=f"_sg.unbroadcast(_sg.dirichlet_tangent_alpha(g, {_XA}), v)",
           x=f"v * {_column('g')} / x", alpha=_alpha_hessian("v", "g"),
           tangent={"v": f"_sg.dirichlet_adjoint_alpha(v_dot, {_XA})",
                    "x": _summed("v * x_dot / x"),
                    "alpha": _alpha_hessian("v", "alpha_dot")})
defadjoint(rt.dirichlet_tangent_alpha, f"t, {_XA}",
           t=f"_sg.dirichlet_adjoint_alpha(g, {_XA})",
           x=f"g * {_column('t')} / x", alpha=_alpha_hessian("g", "t"),
           tangent={"t": f"_sg.dirichlet_tangent_alpha(t_dot, {_XA})",
                    "x": f"np.sum({_column('t')} * x_dot / x, axis=0)",
                    "alpha": f"({_TRIGAMMA_SUM} * np.sum(t) * np.sum(alpha_dot) - "
                             "np.sum(_sg.polygamma(1, alpha) * t * alpha_dot)) * "
                             "np.ones(np.shape(x)[1:])"})

# The multivariate normal's pieces: the centred samples and the covariance matrix SciPy
# reads are linear (their transposes: a reshape, ``mvn_reduce_cov``); the inverse's
# derivative is ``-S dF S``. ``cov`` gives ``mvn_samples`` its dimension only.
defnondiff(rt.mvn_dimension)
defadjoint(rt.mvn_samples, "x, mean, cov",
           x="np.reshape(g, np.shape(x))", mean="-_sg.unbroadcast(np.sum(g, axis=0), mean)",
           tangent={"x": "np.reshape(x_dot, np.shape(ans))",
                    "mean": "-np.broadcast_to(mean_dot, np.shape(ans))", "cov": None})
deflinear(rt.mvn_full_cov, "cov, dim", "_sg.mvn_reduce_cov(g, cov)", linear_in="cov")
deflinear(rt.mvn_reduce_cov, "v, cov", "_sg.mvn_full_cov(g, np.shape(v)[0])", linear_in="v")
defadjoint(rt.mvn_inverse, "full", full="-(np.transpose(ans) @ g @ np.transpose(ans))",
           tangent={"full": "-(ans @ full_dot @ ans)"})

# The entropy's: T = cov^-T (or 1 / cov for variances), dT = -T dcov^T T; each helper
# linear in its first argument and the other's transpose.
_T = "_sg.mvn_entropy_inverse(cov)"


def _through_inverse(inverse, direction):
    """``-T d^T T`` (``-T d T`` for variances): T's derivative along ``d``, or the
    cotangent of ``cov`` it gives a cotangent ``d`` of T (the same map)."""
    return (f"(-({inverse} @ np.transpose({direction}) @ {inverse}) if np.ndim(cov) >= 2 "
            f"else -({inverse} * {direction} * {inverse}))")


defadjoint(rt.mvn_entropy_inverse, "cov", cov=_through_inverse("ans", "g"),
           tangent={"cov": _through_inverse("ans", "cov_dot")})
defadjoint(rt.mvn_entropy_adjoint, "v, cov",
           v="_sg.unbroadcast(_sg.mvn_entropy_tangent(g, cov), v)",
           cov=f"0.5 * v * {_through_inverse(_T, 'g')}",
           tangent={"v": "_sg.mvn_entropy_adjoint(v_dot, cov)",
                    "cov": f"0.5 * v * {_through_inverse(_T, 'cov_dot')}"})
defadjoint(rt.mvn_entropy_tangent, "t, cov",
           t="_sg.unbroadcast(_sg.mvn_entropy_adjoint(g, cov), t)",
           cov=f"0.5 * g * {_through_inverse(_T, 't')}",
           tangent={"t": "_sg.mvn_entropy_tangent(t_dot, cov)",
                    "cov": f"0.5 * np.sum(t * {_through_inverse(_T, 'cov_dot')})"})
