"""``sg.source(df, lines=True)`` and ``python -m srcgrad show`` quote, before each block
of generated code, the user's line it came from: the quoted text is that line of the
user's file (read independently), every statement line of the function is cited, and
without the citations the text is ``sg.source(df)`` as it was."""

import inspect
import os
import re

import numpy as np
import pytest

import srcgrad as sg
from tests.aot.helpers import run_cli

CITATION = re.compile(r"^\s*# (?P<file>[^:]+):(?P<line>\d+): (?P<text>.*)$")


def layer(h, w):
    return np.tanh(h * w)


def loops_and_calls(w, x):
    h = layer(x, w)
    total = 0.0
    for i in range(2):
        total = total + np.sum(h ** 2) * (i + 1)
    return total


def branches(w, x):
    if np.sum(x) > 0:
        y = np.sin(w * x)
    else:
        y = np.cos(w) * x
    z = y * y
    return np.sum(z)


def scalar(w, x):
    a = w * x
    b = a ** 3
    return b + np.exp(a)


FUNCTIONS = [loops_and_calls, branches, scalar]
MAKERS = {"grad": sg.grad, "value_and_grad": sg.value_and_grad, "vjp": sg.vjp,
          "jvp": sg.jvp}


def user_lines(fn):
    """``{line number: stripped text}`` of the statement lines of ``fn``'s body."""
    lines, first = inspect.getsourcelines(fn)
    return {first + i: text.strip() for i, text in enumerate(lines)
            if i and text.strip() and not text.strip().startswith("#")}


def citations(text):
    return [CITATION.match(line) for line in text.splitlines() if CITATION.match(line)]


@pytest.mark.parametrize("maker", MAKERS, ids=str)
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_each_block_cites_the_user_line_it_came_from(fn, maker):
    df = MAKERS[maker](fn)
    plain, cited = sg.source(df), sg.source(df, lines=True)
    assert sg.source(df, lines=False) == plain
    # the citations are added comments, nothing else changes
    kept = [line for line in cited.splitlines() if not CITATION.match(line)]
    assert kept == plain.splitlines()
    body = {**user_lines(fn), **user_lines(layer)}
    found = citations(cited)
    assert found
    for match in found:
        assert match["file"] == os.path.basename(__file__)
        assert body[int(match["line"])] == match["text"]
    statements = {n for n, t in user_lines(fn).items()
                  if not t.startswith(("else", "return")) and "layer" not in t}
    assert statements <= {int(m["line"]) for m in found}


def test_show_cites_by_default_and_not_with_no_lines(tmp_path):
    (tmp_path / "m.py").write_text("import numpy as np\n\n\ndef f(x):\n    y = np.sin(x)\n"
                                   "    return np.sum(y * y)\n")

    def show(*extra):
        done = run_cli(["show", "m.py:f", "--color", "never", *extra], tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    with_lines, without = show(), show("--no-lines")
    assert "# m.py:5: y = np.sin(x)" in with_lines
    assert "# m.py:6: return np.sum(y * y)" in with_lines
    assert not citations(without)
    assert [ln for ln in with_lines.splitlines() if not CITATION.match(ln)] == \
        without.splitlines()
    forward = show("--mode", "forward")
    assert "# m.py:5: y = np.sin(x)" in forward
