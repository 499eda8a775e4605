"""``try`` statements of every shape in every position (at the top, in a loop, in a
branch, in a handler, in a helper), generated, in reverse mode, forward mode and hvp
against finite differences. Forward mode's dead code elimination once never reached a
fixed point on a handler it could not empty (``try: pass / except E: pass``): it hung.
Reverse mode refused a loop (``for``, then ``while``) in a ``try`` body
(``normalize.try_loops`` moves the ``try`` inside the loop)."""

import textwrap

import pytest

import srcgrad as sg
from srcgrad.analysis import fixpoint
from srcgrad.errors import InternalError, TransformError
from srcgrad.optimize.dce import eliminate_dead_code
from srcgrad.syntax import gast, parse, render
from tests.calls.oracle import check_modes, load_source

SHAPES = {
    "empty": """
        try:
            pass
        except ValueError:
            pass""",
    "as_err": """
        try:
            r = r * x
        except ValueError as err:
            r = r * 3.0""",
    "else_finally": """
        try:
            r = r + np.sin(x)
        except (KeyError, ValueError):
            r = r - 1.0
        else:
            r = r * x
        finally:
            r = r + x * x""",
    "raised": """
        try:
            if r > -100.0:
                raise ValueError("taken")
            r = r * 5.0
        except ValueError as err:
            r = r * np.cos(x)""",
    "nested": """
        try:
            try:
                r = r * x
            except KeyError:
                pass
        except ValueError:
            r = r + 1.0""",
    "loop": """
        try:
            for k in range(3):
                r = r * np.cos(x * k) + x
        except ValueError:
            r = r - 1.0""",
    "loop_raises": """
        try:
            r = r * x
            for k in range(4):
                r = r + np.sin(r) * x
                if k == 2 and r > -100.0:
                    raise ValueError("third")
            r = r * 5.0
        except ValueError as err:
            r = r * np.cos(x)""",
    "loop_else_break": """
        try:
            for k, w in enumerate([x, x * x, 2.0]):
                r = r + w * k
                if k == 5:
                    break
            else:
                r = r * x
            r = r + 1.0
        except KeyError:
            pass
        else:
            r = r * r""",
    "loop_in_branch": """
        try:
            if x > 0.0:
                for k in range(2):
                    r = r * x + k
                    if r > 100.0:
                        raise ValueError("big")
            else:
                r = r * 2.0
        except ValueError:
            r = r * 0.5
        finally:
            r = r + x""",
    "while_continue": """
        try:
            k = 0
            while k < 4:
                k += 1
                if k == 2:
                    continue
                r = r * np.cos(x * k) + x
        except ValueError:
            r = r - 1.0""",
    "while_raises": """
        try:
            n = 0
            while r < 3.0 and n < 20:
                r = r * 1.5 + np.sin(x) + 1.0
                n += 1
                if r > 2.0:
                    raise ValueError("big")
            r = r * x
        except ValueError as err:
            r = r * np.cos(x)""",
    "while_else": """
        try:
            k = 0
            while k < 3:
                r = r + np.sin(r) * x
                k += 1
                if r > 50.0:
                    break
            else:
                r = r * x
        except ValueError:
            r = r - 1.0""",
    "finally_only": """
        try:
            r = r * np.tanh(x)
        finally:
            pass""",
}

POSITIONS = {
    "top": """
        def f(x):
            r = x * 1.5
            {TRY}
            return r * x""",
    "loop": """
        def f(x):
            r = x * 1.5
            for i in range(2):
                {TRY}
            return r * x""",
    "branch": """
        def f(x):
            r = x * 1.5
            if x > 0.0:
                {TRY}
            else:
                r = r * 2.0
            return r * x""",
    "handler": """
        def f(x):
            r = x * 1.5
            try:
                raise KeyError("k")
            except KeyError:
                {TRY}
            return r * x""",
    "helper": """
        def helper(r, x):
            {TRY}
            return r

        def f(x):
            r = x * 1.5
            r = helper(r, x)
            return r * x""",
}


def program(shape, position):
    template = textwrap.dedent(POSITIONS[position]).strip("\n")
    line = next(ln for ln in template.splitlines() if "{TRY}" in ln)
    indent = line[:len(line) - len(line.lstrip())]
    block = textwrap.indent(textwrap.dedent(SHAPES[shape]).strip("\n"), indent)
    return "import numpy as np\n\n\n" + template.replace(indent + "{TRY}", block) + "\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("try_positions")


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_try_in_every_position(folder, shape, position):
    module = load_source(program(shape, position), folder, f"try_{shape}_{position}")
    if shape == "nested":   # reverse mode refuses a try in a try body, naming it
        with pytest.raises(TransformError, match="`try` or `with` inside the body"):
            sg.grad(module.f)(0.7)
        check_modes(module.f, 0.7, modes=("jvp",))
    else:
        check_modes(module.f, 0.7)


def test_dead_code_in_a_handler_is_removed_and_reported_once():
    body = parse("""
try:
    pass
except ValueError:
    caught = 1
    unused = caught * 2
y = x
""").body
    body, changed = eliminate_dead_code(body, {"y"})
    assert changed and "caught" not in render(body)
    assert isinstance(body[0], gast.Try) and isinstance(body[0].handlers[0].body[0], gast.Pass)
    assert eliminate_dead_code(body, {"y"}) == (body, False)


def test_a_fixpoint_past_its_bound_is_an_internal_error():
    with pytest.raises(InternalError, match="a test fixpoint did not reach a fixed point"):
        for _ in fixpoint.rounds(3, "a test fixpoint"):
            pass
    assert list(zip(fixpoint.rounds(3, "stops"), range(2))) == [(0, 0), (1, 1)]
