"""The rule-writing API users call: ``sg.defrule`` and ``sg.defelementwise``.

Both add a row to the one rule table every mode reads (``registry``); they check the
row when it is registered, so a typo in a template fails at the ``defrule`` line rather
than in generated code::

    sg.defelementwise(my_sigmoid, "ans * (1 - ans)")
    sg.defrule(scaled_norm, "a, s", a="g * s * a / np.linalg.norm(a)",
               s="g * np.linalg.norm(a)", tangent={"a": ..., "s": ...})
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from srcgrad.rules import registry


def defrule(func: Callable[..., Any], spec: str, tangent: dict[str, str] | str | None = None,
            *, broadcasts: bool = False, **adjoints: str) -> None:
    """Register the derivative of ``func`` as templates the generated code inlines.

    ``spec`` lists ``func``'s parameters as the rule names them, with defaults:
    ``"a, axis=None"``. Each keyword ``PARAM="template"`` gives the reverse-mode
    contribution to that parameter's cotangent; a parameter without one carries no
    derivative. ``tangent`` serves forward mode: a dict ``{PARAM: term}`` whose terms are
    summed (a term written without ``PARAM_dot`` is a partial derivative and is multiplied
    by it), or ``"linear"`` for a function linear in the parameters that have adjoints
    (forward mode calls ``func`` on their tangents). ``broadcasts=True``: contributions
    are summed back to each argument's shape (NumPy broadcasting).

    Templates are Python expressions. They may use the rule's parameters (the call's
    arguments), ``ans`` (the call's value), ``g`` (reverse mode: the cotangent of
    ``ans``), ``PARAM_dot`` (forward mode: the tangent of a parameter), ``np``,
    ``math``, ``_sg`` (``srcgrad.runtime``) and the globals of the module whose function
    is being differentiated. Second derivatives (``sg.hessian``, ``sg.hvp``)
    differentiate the generated code again, so a template may call only functions that
    have rules (or user functions srcgrad can compile).

    Example: ``sg.defrule(np.cbrt, "x", x="g / (3 * np.cbrt(x) ** 2)",
    tangent={"x": "1 / (3 * np.cbrt(x) ** 2)"})``. Returns None; raises ``ValueError``
    for a template that is not a Python expression and ``TypeError`` for a template
    naming no parameter of ``spec``.
    """
    params = _check_spec(func, spec)
    for param, template in adjoints.items():
        if param not in params:
            raise TypeError(f"defrule({_label(func)}): {param}= names no parameter of "
                            f"{spec!r}")
        _check_template(func, f"{param}=", template)
    if isinstance(tangent, dict):
        for param, template in tangent.items():
            if param not in params:
                raise TypeError(f"defrule({_label(func)}): tangent[{param!r}] names no "
                                f"parameter of {spec!r}")
            _check_template(func, f"tangent[{param!r}]", template)
    elif tangent not in (None, "linear"):
        raise TypeError(f"defrule({_label(func)}): tangent must be a dict of templates, "
                        f"'linear' or None; got {tangent!r}")
    rule = registry.defadjoint(func, spec, tangent=tangent, broadcasts=broadcasts, **adjoints)
    _declared_constant(rule)


def defelementwise(func: Callable[..., Any], *partials: str | None,
                   params: str | None = None) -> None:
    """Register an elementwise function by its partial derivatives, one per argument.

    ``sg.defelementwise(my_sigmoid, "ans * (1 - ans)")`` says d my_sigmoid(x) / dx is
    ``ans * (1 - ans)``. One row serves both modes: reverse mode multiplies each partial
    by the cotangent ``g`` and sums it back to the argument's shape, forward mode by the
    tangent ``x_dot``. The parameters are named ``x``, ``y``, ``z`` unless ``params``
    names them (``"a, b"``); ``None`` in place of a partial: no derivative flows to that
    argument. Partials may use the parameters, ``ans``, ``np``, ``math`` and the
    differentiated module's globals; they are differentiated again for second order.
    """
    names = params or ", ".join(("x", "y", "z")[:len(partials)])
    _check_spec(func, names)
    for position, partial in enumerate(partials):
        if partial is not None:
            _check_template(func, f"partial {position}", partial)
    _declared_constant(registry.defelementwise(func, *partials, params=params))


def _declared_constant(rule):
    """A user's rule says, by giving a parameter no template, that no derivative flows
    through it (the docstrings above promise that)."""
    for param in rule.params:
        if param not in rule.adjoints:
            rule.constants[param] = "the rule registered for it gives it no derivative"


def _label(func):
    return getattr(func, "__name__", repr(func))


def _check_spec(func, spec):
    if not callable(func):
        raise TypeError(f"a rule is registered for a callable; got {func!r}")
    try:
        params, _ = registry._params(spec)
    except Exception as exc:
        raise ValueError(f"{_label(func)}: bad parameter list {spec!r}: {exc}") from None
    if not params or not all(p.isidentifier() for p in params):
        raise ValueError(f"{_label(func)}: bad parameter list {spec!r}")
    return params


def _check_template(func, where, template):
    if not isinstance(template, str):
        raise TypeError(f"{_label(func)}: the template {where} must be a string; got "
                        f"{template!r}")
    try:
        ast.parse(template, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{_label(func)}: the template {where} {template!r} is not a "
                         f"Python expression: {exc.msg}") from None


__all__ = ["defelementwise", "defrule"]
