"""The table's contract beyond single rows: missing rules, dtypes, methods, the listing,
and that the oracle really catches a wrong row."""

import subprocess
import sys

import numpy as np
import pytest
import scipy.special

import srcgrad as sg
from srcgrad.cli.rules import differentiable_functions
from srcgrad.rules import REGISTRY, defelementwise
from tests.rules.harness import FORWARD, check_reverse, normal, row, wellcond
from tests.rules.rows import ROWS


def uses_bessel_k0(x):
    return np.sum(np.i0(x) * x)


def test_missing_rule_names_the_function_and_how_to_register_one():
    with pytest.raises(sg.MissingRuleError) as info:
        sg.grad(uses_bessel_k0)(np.ones(3))
    message = str(info.value)
    assert "numpy.i0" in message
    assert "srcgrad.defrule(" in message and "uses_bessel_k0" in message


FLOAT32_ROWS = [
    row("numpy.tanh", lambda x: np.sum(np.tanh(x) * x), normal(3, 2)),
    row("numpy.matmul", lambda a, b: np.sum(np.sin(a @ b)), normal(2, 3), normal(3, 2)),
    row("numpy.sum", lambda a: np.sum(a, axis=0)[1] * 2.0, normal(3, 2)),
    row("numpy.linalg.inv", lambda a: np.sum(np.linalg.inv(a)), wellcond(3, 3)),
    row("numpy.fft.rfft", lambda a: np.sum(np.abs(np.fft.rfft(a)) ** 2), normal(6)),
    row("numpy.sort", lambda a: np.sort(a)[0] * 3.0, normal(5)),
]


@pytest.mark.parametrize("row_", FLOAT32_ROWS, ids=[r.label() for r in FLOAT32_ROWS])
def test_float32_inputs_get_float32_gradients(row_):
    args = [a.astype(np.float32) for a in row_.sample(np.random.default_rng(3))]
    wrt = row_.wrt
    grads = sg.grad(row_.fn, wrt=wrt if len(wrt) > 1 else wrt[0])(*args)
    grads = grads if len(wrt) > 1 else (grads,)
    exact = sg.grad(row_.fn, wrt=wrt if len(wrt) > 1 else wrt[0])(
        *[a.astype(np.float64) for a in args])
    exact = exact if len(wrt) > 1 else (exact,)
    for grad, reference in zip(grads, exact):
        assert grad.dtype == np.float32
        np.testing.assert_allclose(grad, reference, rtol=1e-3, atol=1e-4)


def wrong_square(x):
    return x * x


def test_the_oracle_rejects_a_wrong_row():
    defelementwise(wrong_square, "x")  # the right partial is 2 * x
    try:
        with pytest.raises(AssertionError, match="finite differences"):
            check_reverse(row("wrong_square", lambda x: wrong_square(x), normal(3)),
                          np.random.default_rng(0))
    finally:
        REGISTRY._rules.pop(wrong_square, None)
        REGISTRY._by_name.pop(f"{__name__}.wrong_square", None)


@pytest.mark.parametrize("method, call", [
    ("mean", lambda x: x.mean(axis=0)), ("prod", lambda x: x.prod()),
    ("max", lambda x: x.max(axis=1)), ("min", lambda x: x.min()),
    ("ravel", lambda x: x.ravel()), ("flatten", lambda x: x.flatten()),
    ("copy", lambda x: x.copy()), ("cumsum", lambda x: x.cumsum(axis=1)),
    ("clip", lambda x: x.clip(-0.5, 0.5)), ("transpose", lambda x: x.transpose(1, 0)),
    ("swapaxes", lambda x: x.swapaxes(0, 1)), ("trace", lambda x: x.trace()),
    ("repeat", lambda x: x.repeat(2, axis=0)), ("squeeze", lambda x: x[None].squeeze(0)),
])
def test_array_methods_follow_their_numpy_rows(method, call):
    check_reverse(row(f"ndarray.{method}", call, normal(3, 3)), np.random.default_rng(5))


def test_rules_command_lists_every_differentiable_function():
    out = subprocess.run([sys.executable, "-m", "srcgrad", "rules"], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    table = differentiable_functions()
    assert len(out) == len(table) >= 300
    listed = dict(line.split("  ", 1) for line in out)
    assert listed["numpy.tanh"].strip() == "reverse, forward"
    assert "numpy.linalg.inv" in listed and "scipy.special.erf" in listed
    assert all("srcgrad." not in name for name in listed)


def incomplete_gamma(a, x):
    return np.sum(scipy.special.gammainc(a, x))


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_a_parameter_without_a_derivative_is_refused_not_zeroed(api):
    with pytest.raises(sg.MissingRuleError, match="gammainc` with respect to its argument `a`"):
        if api == "grad":
            sg.grad(incomplete_gamma, wrt=0)(1.5, 2.0)
        else:
            sg.jvp(incomplete_gamma, wrt=0)(1.5, 2.0, 1.0)


def test_runtime_helper_names_are_unique_across_modules():
    """``srcgrad.runtime`` star-imports its modules: a name defined twice would silently
    replace one rule's helper with another's."""
    import ast
    import pathlib

    import srcgrad.runtime

    owners = {}
    for path in sorted(pathlib.Path(srcgrad.runtime.__file__).parent.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and \
                    not node.name.startswith("_"):
                owners.setdefault(node.name, []).append(path.name)
    assert not {name: files for name, files in owners.items() if len(files) > 1}


def test_every_reverse_rule_has_a_forward_rule_for_each_argument():
    """Forward-mode parity over the whole table (user-facing rows): a tangent for every
    argument that has an adjoint. The rows' forward checks test the numbers."""
    from srcgrad.rules import load_optional_rows

    load_optional_rows()
    missing = {}
    for name, rule in REGISTRY.rows().items():
        if name.startswith("srcgrad.") or not rule.adjoints:
            continue
        if rule.tangent is None:
            missing[name] = "no tangent"
        elif isinstance(rule.tangent, dict) and set(rule.adjoints) - set(rule.tangent):
            missing[name] = sorted(set(rule.adjoints) - set(rule.tangent))
    assert not missing
    assert not [r.label() for r in ROWS if FORWARD not in r.modes], "rows must check both modes"


def test_every_parameter_has_a_derivative_or_a_reason_for_none():
    """A parameter with no adjoint is structural (an axis, a flag...), declared constant
    with a reason, or refused: a differentiated value reaching it is never a silent zero."""
    from srcgrad.rules import load_optional_rows
    from srcgrad.rules.registry import STRUCTURAL_PARAMS

    load_optional_rows()
    unexplained = {
        name: [p for p in rule.params if p not in rule.adjoints and p not in rule.refuses
               and p not in rule.constants and p not in STRUCTURAL_PARAMS]
        for name, rule in REGISTRY.rows().items() if not name.startswith("srcgrad.")}
    assert not {name: params for name, params in unexplained.items() if params}


def quantile_at(x, q):
    return np.sum(np.quantile(x, q))


def clipped_interp(x, left):
    return np.sum(np.interp(x, np.array([0.0, 1.0]), np.array([2.0, 3.0]), left=left))


def norm_of_order(x, p):
    return np.linalg.norm(x, p)


REFUSED_PARAMETERS = [
    (quantile_at, (np.array([1.0, 3.0, 2.0]), 0.3), "numpy.quantile", "q"),
    (clipped_interp, (np.array([-1.0, 0.5]), 1.5), "numpy.interp", "left"),
    (norm_of_order, (np.array([1.0, -2.0]), 3.0), "numpy.linalg.norm", "ord"),
]


@pytest.mark.parametrize("fn, args, name, param", REFUSED_PARAMETERS)
@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_a_differentiated_value_reaching_a_parameter_without_a_rule_is_refused(
        fn, args, name, param, api):
    """Each of these functions depends on the parameter (d/dq of a quantile is the gap
    between the order statistics around it); a rule without its derivative must not
    give 0 for it."""
    with pytest.raises(sg.MissingRuleError,
                       match=f"`{name}` with respect to its argument `{param}`"):
        if api == "grad":
            sg.grad(fn, wrt=1)(*args)
        else:
            sg.jvp(fn, wrt=1)(*args, 1.0)


def test_a_watched_value_reaching_a_parameter_without_a_rule_is_refused_on_a_tape():
    q = sg.Variable(0.3)
    with sg.GradientTape():
        with pytest.raises(sg.MissingRuleError,
                           match="`numpy.quantile` with respect to its argument `q`"):
            np.quantile(np.array([1.0, 3.0, 2.0]), q)


def scaled_with_user_rule(x, s):
    return np.sum(user_scaled(x, s))


def user_scaled(x, s):
    return x * s


def test_a_user_rule_without_a_template_for_a_parameter_declares_it_constant():
    """``sg.defrule``'s contract: a parameter given no template carries no derivative."""
    sg.defrule(user_scaled, "x, s", x="g * s", tangent={"x": "s"})
    try:
        assert sg.grad(scaled_with_user_rule, wrt=1)(np.ones(2), 3.0) == 0.0
    finally:
        REGISTRY._rules.pop(user_scaled, None)
        REGISTRY._by_name.pop(f"{__name__}.user_scaled", None)
