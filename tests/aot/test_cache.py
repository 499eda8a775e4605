"""The on-disk cache: a second start loads generated code instead of generating it.

Each run is a fresh interpreter; ``COMPILE_COUNT`` counts units generated and
``srcgrad.compiler.cache.STATS`` counts hits, misses, writes and rejected files."""

import json
import os

import pytest

from tests.aot.helpers import env_with, freeze_srcgrad, last_json, run_python, write_files

MODULE = {"model.py": """
    import numpy as np

    import srcgrad as sg


    @sg.differentiable   # a compiled unit of its own (small undecorated helpers are inlined)
    def helper(x, w):
        return np.tanh(x * w)


    def loss(x, w):
        h = helper(x, w)
        total = 0.0
        for i in range(3):
            total = total + np.sum(h * i)
        return total + np.sum(h ** 2)
"""}

RUN = """
    import json
    import numpy as np
    import srcgrad as sg
    from srcgrad.compiler import cache
    from srcgrad.compiler import reverse as compiler
    import model

    dx, dw = sg.grad(model.loss, (0, 1))(np.array([0.3, -0.2, 0.9]), 0.7)
    print(json.dumps({"generated": compiler.COMPILE_COUNT["reverse"], **cache.STATS,
                      "grad": dx.tolist() + [float(dw)], "package": sg.__file__}))
"""


@pytest.fixture
def project(tmp_path):
    freeze_srcgrad(tmp_path)
    write_files(tmp_path, MODULE)
    return tmp_path


def start(project):
    return last_json(run_python(RUN, project))


def entries(cache_dir):
    return sorted(cache_dir.glob("*.json"))


def test_second_start_loads_instead_of_generating(project, cache_dir):
    first, second = start(project), start(project)
    assert first["generated"] == 2 and first["writes"] == 2 and first["hits"] == 0
    assert second["generated"] == 0 and second["hits"] == 2 and second["writes"] == 0
    assert second["grad"] == first["grad"]
    assert len(entries(cache_dir)) == 2
    assert second["package"].startswith(str(project))     # the frozen copy


RUN_JVP = """
    import json
    import numpy as np
    import srcgrad as sg
    from srcgrad.compiler import cache
    from srcgrad.compiler import forward as compiler_forward
    import model

    x, t = np.array([0.3, -0.2, 0.9]), np.array([1.0, 0.5, -2.0])
    value, tangent = sg.jvp(model.loss)(x, 0.7, t)
    eps = 1e-6
    fd = (model.loss(x + eps * t, 0.7) - model.loss(x - eps * t, 0.7)) / (2 * eps)
    print(json.dumps({"generated": compiler_forward.COMPILE_COUNT["forward"], **cache.STATS,
                      "tangent": float(tangent), "fd": float(fd)}))
"""


def test_forward_mode_second_start_loads_instead_of_generating(project, cache_dir):
    first = last_json(run_python(RUN_JVP, project))
    second = last_json(run_python(RUN_JVP, project))
    assert first["generated"] == 2 and first["writes"] == 2 and first["hits"] == 0
    assert second["generated"] == 0 and second["hits"] == 2 and second["writes"] == 0
    for run in (first, second):   # J t against central differences along t
        assert run["tangent"] == pytest.approx(run["fd"], rel=1e-6, abs=1e-8)
    start(project)   # the reverse-mode units are entries of their own
    assert len(entries(cache_dir)) == 4


def test_changing_a_callee_regenerates_its_callers(project, cache_dir):
    start(project)
    model = project / "model.py"
    model.write_text(model.read_text().replace("np.tanh(x * w)", "np.sin(x * w)"))
    again = start(project)
    assert again["generated"] == 2 and again["hits"] == 0


def test_corrupt_entry_is_ignored_and_replaced(project, cache_dir):
    start(project)
    for path in entries(cache_dir):
        path.write_text('{"format": 1, "source": "def broken(:')
    repaired = start(project)
    assert repaired["rejected"] == 2 and repaired["generated"] == 2
    for path in entries(cache_dir):
        json.loads(path.read_text())
    assert start(project)["hits"] == 2


def test_file_writable_by_others_is_never_loaded(project, cache_dir):
    start(project)
    for path in entries(cache_dir):
        os.chmod(path, 0o666)
    again = start(project)
    assert again["hits"] == 0 and again["rejected"] == 2 and again["generated"] == 2
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in entries(cache_dir))


def test_directory_writable_by_others_is_not_used(project, cache_dir):
    start(project)
    os.chmod(cache_dir, 0o777)
    again = start(project)
    assert again["hits"] == 0 and again["writes"] == 0 and again["generated"] == 2


def test_srcgrad_cache_0_turns_it_off(project, cache_dir):
    env = env_with(SRCGRAD_CACHE="0")
    for _ in range(2):
        out = last_json(run_python(RUN, project, env=env))
        assert out["generated"] == 2 and out["writes"] == 0
    assert not cache_dir.exists()


def test_cache_is_off_under_pytest_unless_asked_for(monkeypatch):
    from srcgrad.compiler import cache

    monkeypatch.delenv("SRCGRAD_CACHE_DIR")
    monkeypatch.setenv("PYTEST_VERSION", "x")
    assert cache.directory() is None
    monkeypatch.setenv("SRCGRAD_CACHE", "1")
    assert cache.directory() is not None


def test_registering_a_rule_for_a_called_function_changes_the_key(tmp_path):
    freeze_srcgrad(tmp_path)
    write_files(tmp_path, {"ruled.py": """
        import numpy as np


        def wiggle(x):
            return np.sin(x)


        def loss(x):
            return np.sum(wiggle(x) * 2.0)
    """})
    script = """
        import json, os
        import numpy as np
        import srcgrad as sg
        from srcgrad.compiler import cache
        from srcgrad.compiler import reverse as compiler
        import ruled

        if os.environ.get("WITH_RULE"):
            sg.defelementwise(ruled.wiggle, "np.cos(x)")
        sg.grad(ruled.loss)(np.array([0.5]))
        print(json.dumps({"generated": compiler.COMPILE_COUNT["reverse"], **cache.STATS}))
    """
    plain = last_json(run_python(script, tmp_path))
    ruled = last_json(run_python(script, tmp_path, env=env_with(WITH_RULE="1")))
    again = last_json(run_python(script, tmp_path, env=env_with(WITH_RULE="1")))
    # wiggle is small enough to be inlined into loss: one unit either way.
    assert plain["generated"] == 1 and ruled["hits"] == 0 and ruled["generated"] == 1
    assert again["hits"] == 1 and again["generated"] == 0
