"""``python -m srcgrad emit``: a standalone module, checked in processes that cannot
import the compiler, byte-identical when re-emitted."""

import json
import pathlib

import numpy as np
import pytest

from tests.aot.helpers import (
    BLOCKER,
    env_with,
    freeze_srcgrad,
    last_json,
    run_cli,
    run_python,
    write_files,
)

PROJECT = {
    "consts.py": """
        import numpy as np

        W = np.array([0.5, -1.0, 2.0])
        SCALE = 3.0
    """,
    "other.py": """
        import numpy as np


        def helper(x):
            return np.sin(x) * 2.0
    """,
    "model.py": """
        import functools

        import numpy as np

        import srcgrad as sg
        from consts import SCALE, W
        from other import helper as other_helper


        @sg.differentiable   # a unit of its own (small undecorated helpers are inlined)
        def helper(x, w):
            return np.tanh(x * w)


        def logged(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapper


        @sg.differentiable
        def loss(x, w):
            h = helper(x, w)
            return np.sum(h ** 2 * W) * SCALE + np.sum(other_helper(x))


        @logged
        @sg.differentiable
        def loop(x, n=3):
            s = 0.0
            for i in range(n):
                s = s + np.sin(x * i)
            return np.sum(s)


        def not_marked(x):
            return np.sum(x)
    """,
}

# Central differences of the original functions, in a process that has the compiler.
NUMERIC = """
    import json
    import numpy as np
    import model
    from tests.conftest import numeric_grad

    x = np.array([0.3, -0.2, 0.9])
    print(json.dumps({"loss": [numeric_grad(model.loss, (x, 0.7), i).tolist() for i in (0, 1)],
                      "loop": numeric_grad(model.loop, (x,), 0).tolist(),
                      "scalar": [float(numeric_grad(model.loss, (0.3, 0.7), i)) for i in (0, 1)]}))
"""

# The emitted module, in a process where gast and the compiler cannot be imported.
EMITTED = BLOCKER + """
import json
import numpy as np
import model_grad as g

x = np.array([0.3, -0.2, 0.9])
dx, dw = g.loss_grad(x, 0.7)
value, (vdx, vdw) = g.loss_value_and_grad(x, 0.7)
forward_value, saved = g.loss_forward(x, 0.7)
bdx, bdw = g.loss_backward(saved, 1.0)
ldx, ldn = g.loop_grad(x)
sdx, sdw = g.loss_grad(0.3, 0.7)       # all scalars: the specialized variant, if any
assert value == forward_value
assert "model" not in sys.modules and "gast" not in sys.modules
print(json.dumps({"loss": [dx.tolist(), float(dw)], "fused": [vdx.tolist(), float(vdw)],
                  "split": [bdx.tolist(), float(bdw)], "loop": ldx.tolist(),
                  "scalar": [float(sdx), float(sdw)]}))
"""


@pytest.fixture
def project(tmp_path):
    freeze_srcgrad(tmp_path)
    write_files(tmp_path, PROJECT)
    return tmp_path


def emit(project, *args, env=None):
    result = run_cli(["emit", "model.py", "-o", "model_grad.py", *args], project, env)
    assert result.returncode == 0, result.stderr
    return (project / "model_grad.py").read_bytes()


def test_emitted_module_runs_without_the_compiler_and_matches_finite_differences(project):
    emit(project)
    emitted = last_json(run_python(EMITTED, project))
    repository = pathlib.Path(__file__).resolve().parents[2]
    numeric = last_json(run_python(NUMERIC, project, env_with(PYTHONPATH=repository)))
    for key in ("loss", "fused", "split"):
        assert np.allclose(emitted[key][0], numeric["loss"][0], atol=1e-6)
        assert np.isclose(emitted[key][1], np.sum(numeric["loss"][1]), atol=1e-6)
    assert np.allclose(emitted["loop"], numeric["loop"], atol=1e-6)
    assert np.allclose(emitted["scalar"], numeric["scalar"], atol=1e-6)


def test_re_emitting_unchanged_input_is_byte_identical(project):
    first = emit(project, env=env_with(SRCGRAD_CACHE="0"))
    second = emit(project)                      # fills the disk cache
    third = emit(project)                       # reads it
    assert first == second == third


def test_emitted_module_names_callees_apart_and_imports_user_globals(project):
    text = emit(project).decode()
    assert "def helper_forward(" in text and "def helper_forward_1(" in text
    assert "from consts import SCALE, W" in text
    assert "import srcgrad.runtime as _sg" in text and "import numpy as np" in text
    assert "not_marked" not in text and "/" + str(project) not in text
    assert text.count("def loop_grad(") == 1           # found through functools.wraps
    compile(text, "model_grad.py", "exec")


def test_function_option_emits_undecorated_functions_importing_module_globals(tmp_path):
    write_files(tmp_path, {"pure.py": """
        import numpy as np

        OFFSET = 0.5


        def energy(x):
            return np.sum((x - OFFSET) ** 2)
    """})
    result = run_cli(["emit", "pure.py", "--function", "energy", "-o", "pure_grad.py"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "from pure import OFFSET" in (tmp_path / "pure_grad.py").read_text()
    out = run_python(BLOCKER + """
import json
import numpy as np
import pure_grad
dx = pure_grad.energy_grad(np.array([1.0, 2.0]))
print(json.dumps(dx.tolist()))
""", tmp_path)
    assert last_json(out) == [1.0, 3.0]


def test_emit_without_marked_functions_says_how_to_choose(tmp_path):
    write_files(tmp_path, {"plain.py": "def f(x):\n    return x * x\n"})
    result = run_cli(["emit", "plain.py"], tmp_path)
    assert result.returncode != 0 and "--function" in result.stderr


def test_emit_prints_to_standard_output_without_o(project):
    result = run_cli(["emit", "model.py"], project)
    assert result.returncode == 0 and result.stdout.startswith('"""Derivatives of model.py')
    assert json.dumps(result.stdout)   # text, not bytes


def test_emit_refuses_a_custom_rule_it_cannot_import_with_a_clear_message(tmp_path):
    write_files(tmp_path, {"custom.py": """
        import numpy as np
        import srcgrad as sg


        @sg.custom_vjp
        def clip(x):
            return np.clip(x, -1.0, 1.0)


        clip.defvjp(lambda x: (clip(x), x), lambda x, g: (g,))


        @sg.differentiable
        def loss(x):
            return np.sum(clip(x) ** 2)
    """})
    result = run_cli(["emit", "custom.py"], tmp_path)
    assert result.returncode == 1 and "custom_vjp" in result.stderr
    assert "define fwd and bwd at module level" in result.stderr


CUSTOM = {"rules.py": """
    import numpy as np
    import srcgrad as sg


    @sg.custom_vjp
    def soft_clip(x, scale):
        return scale * np.tanh(x / scale)


    def soft_clip_fwd(x, scale):
        t = np.tanh(x / scale)
        return scale * t, (t, x, scale)


    def soft_clip_bwd(saved, g, *, wrt):
        t, x, scale = saved
        dx = g * (1 - t ** 2) if "x" in wrt else None
        dscale = np.sum(g * (t - x / scale * (1 - t ** 2))) if "scale" in wrt else None
        return dx, dscale


    soft_clip.defvjp(soft_clip_fwd, soft_clip_bwd)


    @sg.differentiable
    def loss(x, w):
        return np.sum(soft_clip(x * w, 2.0) ** 2)
"""}

CUSTOM_CHECK = """
import json
import numpy as np
import rules
import rules_grad as g

x, w = np.array([0.3, -1.2, 2.5]), 0.8
dx, dw = g.loss_grad(x, w)
eps, numeric = 1e-6, []
for i in range(3):
    e = np.zeros(3)
    e[i] = eps
    numeric.append((rules.loss(x + e, w) - rules.loss(x - e, w)) / (2 * eps))
dw_numeric = (rules.loss(x, w + eps) - rules.loss(x, w - eps)) / (2 * eps)
print(json.dumps({"dx": dx.tolist(), "dw": float(dw), "numeric": numeric,
                  "dw_numeric": float(dw_numeric)}))
"""


def test_emit_imports_a_custom_rule_from_the_users_module(tmp_path):
    freeze_srcgrad(tmp_path)
    write_files(tmp_path, CUSTOM)
    result = run_cli(["emit", "rules.py", "-o", "rules_grad.py"], tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "rules_grad.py").read_text()
    assert "from rules import soft_clip_bwd, soft_clip_fwd" in text
    assert "grads = soft_clip_bwd(saved, g, wrt=('x',))" in text   # only x carries one
    done = last_json(run_python(CUSTOM_CHECK, tmp_path))
    assert np.allclose(done["dx"], done["numeric"], atol=1e-6)
    assert np.isclose(done["dw"], done["dw_numeric"], atol=1e-6)


def test_marked_functions_are_found_behind_any_wrapper():
    import types

    from srcgrad.aot.emit import _marked_function

    def plain(x):
        return x

    class Wrapper:
        __srcgrad_differentiable__ = True

        def __init__(self, fn):
            self.__srcgrad_function__ = fn

    assert _marked_function(Wrapper(plain)) is plain
    assert _marked_function(plain) is None
    assert _marked_function(types.SimpleNamespace(__wrapped__=plain)) is None
