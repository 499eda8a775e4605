"""The runtime is closed under differentiation: every helper that generated code can call
(``_sg.<name>`` in what the compiler and the rule rows emit) is a rule row; the compiler
never parses a runtime function's source (an InternalError, which the order checks over
every rule row report); and the Hessian of a polynomial differentiates its gradient
through rows only, with no guard on srcgrad's own names."""

import pathlib
import re
import types

import numpy as np
import pytest

import srcgrad as sg
from srcgrad import runtime
from srcgrad.rules import REGISTRY, load_optional_rows

SRCGRAD = pathlib.Path(sg.__file__).parent
# Names generated code calls that the compiler resolves before looking for a row: the
# Variable read and attribute write (``modes.calls``) and a guard's hand-over type; and
# what an eager variant's guard raises (``eager.static``: variants are run, never
# differentiated).
_RESOLVED_BEFORE_ROWS = {"read_variable", "set_attribute", "Redirected", "unsuppressed",
                         "StaleVariant"}


def emitted_helpers():
    """``{name: files}`` for every ``_sg.<name>`` the compiler, the modes and the rule
    rows can emit (every source file of srcgrad outside the runtime itself)."""
    found = {}
    for path in SRCGRAD.rglob("*.py"):
        if "runtime" in path.relative_to(SRCGRAD).parts:
            continue
        for name in re.findall(r"_sg\.([A-Za-z_]\w*)", path.read_text()):
            # an f-string's prefix (``_sg.stats_{name}_{method}``): every helper it can name
            named = [n for n in dir(runtime) if n.startswith(name)
                     and isinstance(getattr(runtime, n), types.FunctionType)] \
                if name.endswith("_") else [name]
            for each in named:
                found.setdefault(each, set()).add(path.name)
    return found


def test_every_emitted_helper_has_rows():
    load_optional_rows()
    missing, unknown = [], []
    for name, files in sorted(emitted_helpers().items()):
        helper = getattr(runtime, name, None)
        if helper is None:
            unknown.append((name, sorted(files)))
            continue
        if name in _RESOLVED_BEFORE_ROWS:
            continue
        if not REGISTRY.knows(helper):
            missing.append((name, sorted(files)))
    assert not unknown, f"emitted names that srcgrad.runtime does not define: {unknown}"
    assert not missing, ("runtime helpers generated code calls without rule rows (add rows "
                         f"in srcgrad/rules/runtime_*rules.py): {missing}")


def test_differentiating_generated_code_never_parses_the_runtime():
    """Every runtime function's source is refused with an InternalError (a srcgrad bug,
    never compiled), and so is a derivative whose code would reach one."""
    from srcgrad.errors import InternalError
    from srcgrad.frontend.parse import parse_function

    functions = {name: getattr(runtime, name) for name in emitted_helpers()
                 if isinstance(getattr(runtime, name, None), types.FunctionType)}
    assert len(functions) > 100
    for name, helper in functions.items():
        with pytest.raises(InternalError, match=f"runtime function `.*{name}`"):
            parse_function(helper)
    with pytest.raises(InternalError, match="runtime function"):
        sg.grad(runtime.unbroadcast)(np.ones(3), np.ones(3))


def test_every_dispatched_helper_is_resolved_by_the_dispatcher():
    """The calls resolved when they run are rows without templates: the dispatcher
    resolves each, differentiated again, to its callee's derivative one order higher."""
    from srcgrad.compiler import dispatch

    dispatched = {name for name in dir(runtime)
                  if REGISTRY.is_dispatched(getattr(runtime, name))}
    assert dispatched == {f.__name__ for f in dispatch._META}, dispatched


def polynomial(x):
    return np.sum(x ** 3 + np.sin(x) * x)


def test_hessian_source_reads_like_a_gradient():
    hessian = sg.hessian(polynomial)
    x = np.array([0.3, -1.2, 2.0])
    expected = np.diag(6 * x + 2 * np.cos(x) - x * np.sin(x))   # closed form
    np.testing.assert_allclose(hessian(x), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hessian(x), expected, rtol=1e-12, atol=1e-12)  # called twice
    source = sg.source(hessian)
    assert "Guard" not in source and "_assumed_" not in source, source
    # every _sg call is a helper with rows; nothing was compiled from the runtime's source
    called = set(re.findall(r"_sg\.(\w+)\(", source))
    assert called and all(REGISTRY.knows(getattr(runtime, name)) for name in called), called
    defined = re.findall(r"^def (\w+)", source, re.M)
    helpers = {name for name in dir(runtime) if not name.startswith("_")}
    assert not [d for d in defined if d.rsplit("_jvp", 1)[0] in helpers], defined
