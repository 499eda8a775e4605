"""codegen.naming: readable names that never collide with the user's or with builtins."""

import builtins
import keyword

import numpy as np

import srcgrad as sg
from srcgrad.codegen.naming import Namer


def test_adjoint_and_tangent_names():
    namer = Namer(["x", "w"])
    assert namer.adjoint("x") == "dx"
    assert namer.adjoint("_mul") == "d_mul"
    assert namer.tangent("x") == "x_dot"
    assert namer.adjoint("x") == "dx"  # stable on a second request


def test_suffix_only_on_collision():
    namer = Namer(["dx", "_mul"])
    assert namer.adjoint("x") == "dx_1"
    assert namer.temp("mul") == "_mul_1"
    assert namer.temp("mul") == "_mul_2"
    assert namer.temp("sin") == "_sin"


def test_never_a_builtin_or_keyword():
    namer = Namer()
    for word in ["sum", "len", "lambda", "if", "np", "math", "_sg"]:
        name = namer.fresh(word)
        assert name != word
        assert name not in dir(builtins) and not keyword.iskeyword(name)


def test_unsafe_characters_are_replaced():
    namer = Namer()
    assert namer.fresh("a.b-c") == "a_b_c"
    assert namer.fresh("2x") == "_2x"


def test_generated_code_avoids_user_names():
    def shadows(x, dx, _mul):
        return x * dx + _mul

    text = sg.source(sg.grad(shadows, wrt=(0, 1, 2)))
    assert "def shadows_grad(x, dx, _mul):" in text
    assert "dx_1" in text and "d_mul" in text
    assert sg.grad(shadows, wrt=(0, 1, 2))(2.0, 3.0, 4.0) == (3.0, 2.0, 1.0)


def test_generated_temporaries_are_named_after_their_operation():
    def chain(x):
        return np.sin(x * x)

    text = sg.source(sg.grad(chain))
    assert "_mul = x * x" in text and "_sin = np.sin(_mul)" in text
    assert "d_sin" in text and "d_mul" in text



_WEIGHTS = np.ones(3)
_SCALE = np.float64(2.0)


def _with_named_defaults(x, w=_WEIGHTS, *, k=_SCALE):
    y = x * w
    return np.sum(y * k)


def _with_local_function(a, b=2.0):
    c = a + b

    def scale(z):
        return z * c
    return scale(a)


def test_taken_names_are_every_name_of_the_tree():
    """The namers' taken names (read from the fence's walk of the body) are the names a
    walk of the whole tree finds once the non-literal defaults are named, and again
    after the body was replaced (the fence's record is then not used)."""
    from srcgrad import syntax
    from srcgrad.codegen import defaults
    from srcgrad.frontend.fence import check_function, taken_names
    from srcgrad.frontend.parse import parse_function
    from srcgrad.syntax import gast

    for fn in (_with_named_defaults, _with_local_function):
        for replace_body in (False, True):
            parsed = check_function(parse_function(fn))
            parsed.default_values = defaults.name_defaults(parsed.fn, parsed.node)
            if replace_body:
                parsed.node.body = parsed.node.body[:-1] + [
                    gast.Return(value=syntax.name("replaced_result"))]
            walked = set(syntax.names_in(parsed.node)) | {parsed.node.name}
            assert taken_names(parsed) == walked
            assert "replaced_result" in walked or not replace_body
    named = check_function(parse_function(_with_named_defaults))
    named.default_values = defaults.name_defaults(named.fn, named.node)
    assert {"w_default", "k_default"} <= taken_names(named)


def test_generated_names_avoid_named_defaults():
    """A derivative of a function whose defaults are named (``w_default``) computes the
    right gradient (central differences)."""
    x = np.array([0.3, -1.2, 0.7])
    got = sg.grad(_with_named_defaults)(x)
    eps = 1e-6
    want = np.array([(_with_named_defaults(x + eps * e) - _with_named_defaults(x - eps * e))
                     / (2 * eps) for e in np.eye(3)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
