"""Reductions, statistics and integrals: sums, extrema, moments, order statistics."""

from collections.abc import Callable
from typing import Any

import numpy as np

from srcgrad.rules.registry import defadjoint, deflinear, defrefuses

SUM = "a, axis=None, dtype=None, out=None, keepdims=False"
deflinear(np.sum, SUM + ", initial=None, where=None",
          "_sg.sum_adjoint(g, a, axis, keepdims)", linear_in="a")
deflinear(np.mean, SUM + ", where=None", "_sg.mean_adjoint(g, a, axis, keepdims)",
          linear_in="a")
defadjoint(np.prod, SUM + ", initial=None, where=None",
           a="_sg.prod_adjoint(g, a, ans, axis, keepdims)",
           tangent={"a": "np.sum(_sg.prod_adjoint(np.ones_like(ans), a, ans, axis, keepdims)"
                         " * a_dot, axis=axis, keepdims=keepdims)"})
deflinear(np.cumsum, "a, axis=None, dtype=None, out=None",
          "_sg.cumsum_adjoint(g, a, axis)", linear_in="a")
defadjoint(np.cumprod, "a, axis=None, dtype=None, out=None",
           a="_sg.cumprod_adjoint(g, a, ans, axis)",
           tangent={"a": "_sg.cumprod_tangent(a_dot, a, ans, axis)"})

# Extrema: the cotangent goes to the winners, shared equally on ties.
EXTREMUM = "a, axis=None, out=None, keepdims=False, initial=None, where=None"
_CHOOSE = "_sg.max_adjoint(g, a, ans, axis, keepdims)"
_CHOOSE_DOT = ("np.sum(_sg.max_adjoint(np.ones_like(ans), a, ans, axis, keepdims) * a_dot, "
               "axis=axis, keepdims=keepdims)")
for _reduce in (np.max, np.min, np.amax, np.amin):
    defadjoint(_reduce, EXTREMUM, a=_CHOOSE, tangent={"a": _CHOOSE_DOT})
for _reduce in (np.nanmax, np.nanmin):
    defadjoint(_reduce, "a, axis=None, out=None, keepdims=False, initial=None, where=None",
               a=_CHOOSE, tangent={"a": _CHOOSE_DOT})
defadjoint(np.ptp, "a, axis=None, out=None, keepdims=False",
           a="_sg.max_adjoint(g, a, np.max(a, axis=axis, keepdims=keepdims), axis, keepdims)"
             " - _sg.max_adjoint(g, a, np.min(a, axis=axis, keepdims=keepdims), axis, keepdims)",
           tangent={"a": "np.sum((_sg.max_adjoint(np.ones_like(ans), a, np.max(a, axis=axis, "
                         "keepdims=keepdims), axis, keepdims) - _sg.max_adjoint(np.ones_like(ans)"
                         ", a, np.min(a, axis=axis, keepdims=keepdims), axis, keepdims)) * a_dot, "
                         "axis=axis, keepdims=keepdims)"})

# NaN-aware sums: NaNs are skipped, so they get no cotangent.
_nansum = deflinear(np.nansum, SUM + ", initial=None, where=None",
                    "_sg.nansum_adjoint(g, a, axis, keepdims)", linear_in="a")
_nanmean = deflinear(np.nanmean, SUM + ", where=None",
                     "_sg.nanmean_adjoint(g, a, axis, keepdims)", linear_in="a")
# The tangent skips the NaNs' positions too (a tangent there is finite).
_nansum.tangent = {"a": "np.sum(np.where(np.isnan(a), 0.0, a_dot), axis=axis, "
                        "keepdims=keepdims)"}
_nanmean.tangent = {"a": "np.nanmean(np.where(np.isnan(a), np.nan, a_dot), axis=axis, "
                         "keepdims=keepdims)"}

# Moments.
MOMENT = SUM + ", ddof=0, where=None, mean=None, correction=None"
defadjoint(np.var, MOMENT, a="_sg.var_adjoint(g, a, axis, ddof, keepdims)",
           tangent={"a": "_sg.var_tangent(a_dot, a, axis, ddof, keepdims)"})
# (0 where the std is 0, as in std_adjoint: one element's std is the constant 0)
defadjoint(np.std, MOMENT, a="_sg.std_adjoint(g, a, ans, axis, ddof, keepdims)",
           tangent={"a": "_sg.var_tangent(a_dot, a, axis, ddof, keepdims) / "
                         "(2 * np.where(ans == 0, 1.0, ans))"})

# Order statistics (linear interpolation between the two nearest ranks).
ORDER = "out=None, overwrite_input=False, method='linear', keepdims=False, weights=None"
defadjoint(np.median, "a, axis=None, out=None, overwrite_input=False, keepdims=False",
           a="_sg.quantile_adjoint(g, a, 0.5, axis, keepdims)",
           tangent={"a": "_sg.quantile_tangent(a_dot, a, 0.5, axis, keepdims)"})
defadjoint(np.quantile, f"a, q, axis=None, {ORDER}, interpolation=None",
           a="_sg.quantile_adjoint(g, a, q, axis, keepdims, method)",
           tangent={"a": "_sg.quantile_tangent(a_dot, a, q, axis, keepdims, method)"})
defadjoint(np.percentile, f"a, q, axis=None, {ORDER}, interpolation=None",
           a="_sg.quantile_adjoint(g, a, np.true_divide(q, 100), axis, keepdims, method)",
           tangent={"a": "_sg.quantile_tangent(a_dot, a, np.true_divide(q, 100), axis, "
                         "keepdims, method)"})

# Differences and integrals.
deflinear(np.diff, "a, n=1, axis=-1, prepend=None, append=None",
          "_sg.diff_adjoint(g, a, n, axis, prepend, append)", linear_in="a")
defadjoint(np.trapezoid, "y, x=None, dx=1.0, axis=-1",
           y="_sg.trapezoid_adjoint_y(g, y, x, dx, axis)",
           x="_sg.trapezoid_adjoint_x(g, y, x, axis)",
           dx="_sg.trapezoid_adjoint_dx(g, y, axis)",
           tangent={"y": "np.trapezoid(y_dot, x, dx, axis)",   # linear in each argument
                    "x": "np.trapezoid(y, x_dot, dx, axis)",
                    "dx": "np.trapezoid(y, x, dx_dot, axis)"})

# Float parameters these rows have no derivative for: refused when differentiated.
_WITH_INITIAL: tuple[Callable[..., Any], ...] = (
    np.sum, np.prod, np.max, np.min, np.amax, np.amin, np.nanmax, np.nanmin, np.nansum)
for _reduce in _WITH_INITIAL:
    defrefuses(_reduce, "initial")
defrefuses(np.var, "mean")
defrefuses(np.std, "mean")
defrefuses(np.quantile, "q", "weights")
defrefuses(np.percentile, "q", "weights")
defrefuses(np.diff, "prepend", "append")
