"""Check one program's derivatives against central finite differences, in four modes.

``check(f, args, rng)`` compares, along random directions ``u`` (over all arguments at
once), ``<grad f, u>`` and the jvp with ``(f(x + eps u) - f(x - eps u)) / 2 eps``:

- ``reverse``: ``sg.grad(f, wrt=all)``;
- ``forward``: ``sg.jvp(f, wrt=all)`` (its value too);
  (each called a second time with the same arguments, which must give the same numbers)
- ``hvp``: ``sg.hvp(f, wrt=all)`` against central differences of the gradient;
- ``eager``: ``sg.implicit_value_and_gradients`` over a function reading Variables, or
  a ``GradientTape`` around ``sg.differentiable(f)`` called on Variables; only where
  Python gives ``f`` the same value on Variables as on arrays (a write through a view of
  an argument changes the array, not the Variable: TF's semantics).

A point where a branch flips inside the stencil (one-sided differences disagree, or the
central difference changes with the step) is not a test of anything: another point is
drawn. Exceptions are ``refused`` (``TransformError``/``MissingRuleError``, keyed by the
construct the message names) or ``crashed`` (anything else: an internal error)::

    verdict = check(module.f, args, np.random.default_rng(0))
    verdict.outcome, verdict.mode, verdict.detail    # 'ok', None, ''
"""

from __future__ import annotations

import dataclasses
import re
import traceback

import numpy as np

import srcgrad as sg

MODES = ("reverse", "forward", "hvp", "eager")
EPS = 1e-6
RTOL, ATOL = 1e-5, 1e-7
ORDER = {"invalid": -1, "ok": 0, "skipped": 1, "refused": 2, "crashed": 3, "wrong": 4}


@dataclasses.dataclass
class Verdict:
    outcome: str = "ok"          # ok / skipped / refused / crashed / wrong
    mode: str = None             # the first mode that was not ok
    detail: str = ""
    construct: str = ""          # what a refusal names (its message, without places)
    point: list = None           # the arguments checked (a nearby point when needed)

    def worse(self, other):
        return other if ORDER[other.outcome] > ORDER[self.outcome] else self


class Oracle:
    """Finite differences of ``f`` at copies of the arguments (``f`` may write into them)."""

    def __init__(self, f, args):
        self.f, self.args = f, [_copy(a) for a in args]

    def value(self, args=None):
        with np.errstate(all="ignore"):
            return float(self.f(*[_copy(a) for a in (args or self.args)]))

    def overflows(self):
        """Does ``f`` overflow or compute an invalid value (inf - inf, 0 * inf) at the
        point? Then no derivative is a test there: through an inf, reverse and forward
        mode give nan (0 * inf) where a saturated ``f`` (``np.tanh(inf)``) looks constant
        to the stencil. Run on float64s, which report what Python floats do silently."""
        args = [np.float64(a) if type(a) is float else _copy(a) for a in self.args]
        try:
            with np.errstate(over="raise", invalid="raise", divide="raise"):
                self.f(*args)
        except (FloatingPointError, OverflowError, ZeroDivisionError):
            return True
        except Exception:  # noqa: BLE001 - the checks that follow report it
            return False
        return False

    def shifted(self, direction, step):
        return [a + step * d for a, d in zip(self.args, direction)]

    def directional(self, direction):
        """The central difference along ``direction``, or None where it is unstable
        (a branch flips, a loop exits earlier, within the stencil) or where rounding
        the values alone could move it by more than the tolerance (``f`` near 1e20:
        ``f(x + eps u) == f(x - eps u)`` says nothing about the derivative)."""
        f0 = self.value()
        plus, minus = self.value(self.shifted(direction, EPS)), \
            self.value(self.shifted(direction, -EPS))
        central = (plus - minus) / (2 * EPS)
        scale = max(1.0, abs(central))
        roundoff = np.finfo(float).eps * max(abs(plus), abs(minus), abs(f0)) / EPS
        if not roundoff <= RTOL * scale:   # values so large the stencil cannot resolve
            return None                    # the derivative to the tolerance (or nan)
        if abs((plus - f0) - (f0 - minus)) / EPS > 1e-3 * scale:
            return None
        wide = (self.value(self.shifted(direction, 1e-4))
                - self.value(self.shifted(direction, -1e-4))) / 2e-4
        if not np.isfinite(central) or abs(wide - central) > 1e-4 * scale:
            return None
        return central


def close(got, want, rtol=RTOL, atol=ATOL):
    return abs(got - want) <= atol + rtol * max(1.0, abs(want))


def random_direction(args, rng):
    return [rng.standard_normal(np.shape(a)) if np.ndim(a) else float(rng.standard_normal())
            for a in args]


def inner(xs, ys):
    return float(sum(np.sum(np.asarray(x, dtype=float) * np.asarray(y, dtype=float))
                     for x, y in zip(xs, ys)))


def check(f, args, rng, modes=MODES, entry=None, points=4):
    """The verdict on ``f`` at ``args`` (and nearby points when a stencil is unstable).
    ``entry``: ``(set_variables, function)`` for the implicit eager API (see ``runner``)."""
    oracle = Oracle(f, args)
    for _ in range(points):
        direction = random_direction(args, rng)
        expected = oracle.directional(direction)
        if expected is not None and not oracle.overflows():
            break
        oracle = Oracle(f, [a + 0.05 * d for a, d in zip(oracle.args, random_direction(args, rng))])
    else:
        return Verdict("skipped", None, "no point without a branch flip in its stencil or "
                                        "an overflow")
    verdict = Verdict(point=oracle.args)
    for mode in modes:
        if mode == "hvp" and verdict.outcome != "ok":
            continue
        try:
            found = MODE_CHECKS[mode](oracle, direction, expected, rng, entry)
        except sg.TransformError as error:   # MissingRuleError is one too
            found = Verdict("refused", mode, _first_line(error), construct_of(error))
        except Exception as error:  # noqa: BLE001 - an internal error is what we look for
            found = Verdict("crashed", mode, _crash_line(error))
        if found is not None and found.outcome != "ok":
            found.mode = found.mode or mode
            found.point = oracle.args
            verdict = verdict.worse(found)
    return verdict


def _reverse(oracle, direction, expected, rng, entry):
    n = len(oracle.args)
    derivative = sg.value_and_grad(oracle.f, wrt=tuple(range(n)))
    value, grads = derivative(*[_copy(a) for a in oracle.args])
    again = _called_again(derivative, oracle.args, (value, grads))
    if again is not None:
        return again
    if not close(float(value), oracle.value(), 1e-9, 1e-12):
        return Verdict("wrong", detail=f"value {float(value):.10g}, f = {oracle.value():.10g}")
    for g, a in zip(grads, oracle.args):
        if np.shape(g) != np.shape(a):
            return Verdict("wrong", detail=f"gradient shape {np.shape(g)} for {np.shape(a)}")
    got = inner(grads, direction)
    if not close(got, expected):
        return Verdict("wrong", detail=f"<grad, u> = {got:.10g}, finite differences "
                                       f"{expected:.10g}")
    return None


def _forward(oracle, direction, expected, rng, entry):
    n = len(oracle.args)
    derivative = sg.jvp(oracle.f, wrt=tuple(range(n)))
    value, got = derivative(*[_copy(a) for a in oracle.args],
                            tuple(_copy(d) for d in direction))
    again = _called_again(derivative, oracle.args + [tuple(direction)], (value, got))
    if again is not None:
        return again
    if not close(float(value), oracle.value(), 1e-9, 1e-12):
        return Verdict("wrong", detail=f"value {float(value):.10g}, f = {oracle.value():.10g}")
    if not close(float(got), expected):
        return Verdict("wrong", detail=f"jvp = {float(got):.10g}, finite differences "
                                       f"{expected:.10g}")
    return None


def _called_again(derivative, args, first):
    """A derivative called a second time with the same arguments gives the same numbers
    (a unit's cached state, a stack left over, must not change them); else a ``wrong``
    verdict."""
    second = derivative(*[_copy(a) for a in args])
    flat_first, flat_second = _flat(first), _flat(second)
    if len(flat_first) != len(flat_second) or not all(
            np.allclose(a, b, rtol=1e-12, atol=0.0, equal_nan=True)
            for a, b in zip(flat_first, flat_second)):
        return Verdict("wrong", detail="a second call gave other numbers than the first")
    return None


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in _flat(item)]
    return [np.asarray(value, dtype=complex)]


def _hvp(oracle, direction, expected, rng, entry):
    n = len(oracle.args)
    vector = random_direction(oracle.args, rng)
    grad = sg.grad(oracle.f, wrt=tuple(range(n)))

    def along(step):
        return inner(grad(*[_copy(a) for a in oracle.shifted(vector, step)]), direction)

    mid = along(0.0)
    for h in (1e-5, 1e-6):   # a smaller step where the curvature is too large for 1e-5
        plus, minus = along(h), along(-h)
        fd = (plus - minus) / (2 * h)
        scale = max(1.0, abs(fd))
        if abs((plus - mid) - (mid - minus)) / h > 1e-2 * scale:
            return None   # a branch flips inside the stencil of the gradient
        quarter = (along(h / 4) - along(-h / 4)) / (h / 2)
        if close(quarter, fd, 1e-5, 1e-7):
            break
    else:
        return None   # the difference quotient does not settle: no test of anything
    got = inner(sg.hvp(oracle.f, wrt=tuple(range(n)))(
        *[_copy(a) for a in oracle.args], tuple(_copy(v) for v in vector)), direction)
    if not close(got, fd, 1e-4, 1e-6):
        return Verdict("wrong", detail=f"<u, H v> = {got:.10g}, finite differences of the "
                                       f"gradient {fd:.10g}")
    return None


def _value_on_variables(oracle):
    """``f`` run by Python on Variables (TF semantics: a Variable's slice is a new
    Tensor, ``v *= 2`` rebinds), or None where that raises."""
    try:
        with np.errstate(all="ignore"):
            return float(np.asarray(oracle.f(*[sg.Variable(_copy(a)) for a in oracle.args])))
    except Exception:  # noqa: BLE001 - e.g. item assignment into a Tensor
        return None


def _eager(oracle, direction, expected, rng, entry):
    on_variables = _value_on_variables(oracle)
    if on_variables is None or not close(on_variables, oracle.value(), 1e-9, 1e-12):
        return None   # writes through views of arguments: NumPy's semantics, not TF's
    variables = [sg.Variable(_copy(a)) for a in oracle.args]
    if entry is not None and rng.random() < 0.5:
        set_variables, function = entry
        set_variables(variables)
        value, pairs = sg.implicit_value_and_gradients(function)()
        by_id = {id(v): g for g, v in pairs}
        grads = [by_id.get(id(v)) for v in variables]
        api = "implicit_value_and_gradients"
    else:
        with sg.GradientTape() as tape:
            value = sg.differentiable(oracle.f)(*variables)
        grads = tape.gradient(value, variables)
        api = "GradientTape"
    if not close(float(np.asarray(value)), oracle.value(), 1e-9, 1e-12):
        return Verdict("wrong", detail=f"{api}: value {float(np.asarray(value)):.10g}, "
                                       f"f = {oracle.value():.10g}")
    grads = [np.zeros(np.shape(a)) if g is None else g for g, a in zip(grads, oracle.args)]
    got = inner(grads, direction)
    if not close(got, expected):
        return Verdict("wrong", detail=f"{api}: <grad, u> = {got:.10g}, finite differences "
                                       f"{expected:.10g}")
    return None


MODE_CHECKS = {"reverse": _reverse, "forward": _forward, "hvp": _hvp, "eager": _eager}


def construct_of(error):
    """A refusal's first line without its place or numbers: the construct refused."""
    reason = getattr(error, "reason", None) or _first_line(error)
    return re.sub(r"\d+", "N", reason.splitlines()[0])[:100]


def _first_line(error):
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else ''}"


def _crash_line(error):
    lines = traceback.format_exception(error)
    return lines[-1].strip()


def _copy(a):
    return a.copy() if isinstance(a, np.ndarray) else a
