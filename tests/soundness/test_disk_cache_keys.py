"""The on-disk cache never hands back another function's gradient, nor a stale one, and
nothing found at an entry's path can crash or hang a later process.

Each run is a fresh interpreter (what a later process sees is the point); gradients are
checked against central differences computed in that same process."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.aot.helpers import freeze_srcgrad, last_json, write_files

TWO_LAMBDAS = {"pair.py": """
    import numpy as np

    a, b = (lambda v: np.sum(v * v * 2.0)), (lambda v: np.sum(v * v * 3.0))
"""}

FD = """
    def fd(f, x, eps=1e-6):
        out = np.zeros_like(x)
        for i in range(x.size):
            e = np.zeros_like(x)
            e[i] = eps
            out[i] = (f(x + e) - f(x - e)) / (2 * eps)
        return out
"""

CHAIN = {"outer.py": """
    import numpy as np

    import inner


    def f(x):
        return np.sum(inner.g(x) * x)
""", "inner.py": """
    import numpy as np

    from deepest import h


    def g(x):
        return h(x) + 1.0
""", "deepest.py": """
    import numpy as np


    def h(x):
        return np.sin(x)
"""}


@pytest.fixture
def project(tmp_path):
    freeze_srcgrad(tmp_path)
    return tmp_path


def run(project, code, timeout=60):
    """``code`` in a fresh interpreter with the cache in ``project/cache``."""
    env = dict(os.environ, SRCGRAD_CACHE_DIR=str(project / "cache"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("SRCGRAD_CACHE", None)
    header = ("import json\nimport numpy as np\nimport srcgrad as sg\n"
              "from srcgrad.compiler import cache\n")
    result = subprocess.run([sys.executable, "-c", header + textwrap.dedent(FD)
                             + textwrap.dedent(code)], cwd=project, env=env,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr
    return last_json(result)


GRAD_OF = """
    import {module}
    x = np.array([.3, .7, 1.1])
    function = {module}.{name}
    print(json.dumps({{"grad": sg.grad(function)(x).tolist(), "fd": fd(function, x).tolist(),
                      **cache.STATS}}))
"""


def grad_of(project, module, name):
    out = run(project, GRAD_OF.format(module=module, name=name))
    assert out["grad"] == pytest.approx(out["fd"], rel=1e-6, abs=1e-8), name
    return out


def test_two_lambdas_on_one_line_have_their_own_gradients(project):
    write_files(project, TWO_LAMBDAS)
    both = run(project, """
        import pair
        x = np.array([.3, .7, 1.1])
        print(json.dumps({"a": sg.grad(pair.a)(x).tolist(), "b": sg.grad(pair.b)(x).tolist()}))
    """)
    assert both["a"] == pytest.approx([1.2, 2.8, 4.4])
    assert both["b"] == pytest.approx([1.8, 4.2, 6.6])
    later = grad_of(project, "pair", "b")   # a later process, b first
    assert later["hits"] == 1
    grad_of(project, "pair", "a")


def test_editing_a_helper_two_calls_down_is_seen_by_the_next_process(project):
    write_files(project, CHAIN)
    first = grad_of(project, "outer", "f")
    assert grad_of(project, "outer", "f")["hits"] >= 1
    deepest = project / "deepest.py"
    deepest.write_text(deepest.read_text().replace("np.sin(x)", "np.cos(x) * x"))
    edited = grad_of(project, "outer", "f")
    assert edited["grad"] != pytest.approx(first["grad"])


def _entries(project):
    return sorted((project / "cache").glob("*.json"))


def _damage_each(project, damage):
    """Fill the cache, damage every entry, and check the next two processes."""
    write_files(project, CHAIN)
    grad_of(project, "outer", "f")
    paths = _entries(project)
    assert paths
    for path in paths:
        damage(path)
    repaired = grad_of(project, "outer", "f")
    assert repaired["rejected"] >= 1 and repaired["writes"] >= 1
    for path in paths:
        assert path.is_file() and not path.is_symlink()
        assert "digest" in json.loads(path.read_text())
    again = grad_of(project, "outer", "f")
    assert again["hits"] >= 1 and again["rejected"] == 0


def _rewrite(path, change):
    payload = json.loads(path.read_text())
    change(payload)
    path.write_text(json.dumps(payload))


def test_entry_missing_a_field_is_replaced(project):
    _damage_each(project, lambda p: _rewrite(p, lambda e: e.pop("fields")))


def test_entry_missing_a_unit_field_is_replaced(project):
    _damage_each(project, lambda p: _rewrite(p, lambda e: e["fields"].clear()))


def test_entry_with_a_bad_line_map_is_replaced(project):
    _damage_each(project, lambda p: _rewrite(p, lambda e: e.update(line_map=[["a", 1], [2]])))


def test_entry_whose_content_changed_is_replaced(project):
    def tamper(entry):   # well-formed, but not what was stored: the digest tells
        entry["source"] = entry["source"].replace("np.cos", "np.sin")
    _damage_each(project, lambda p: _rewrite(p, tamper))


def test_directory_in_place_of_an_entry_is_replaced(project):
    def directory(path):
        path.unlink()
        path.mkdir()
        (path / "inside").write_text("x")
    _damage_each(project, directory)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_in_place_of_an_entry_neither_hangs_nor_crashes(project):
    def fifo(path):
        path.unlink()
        os.mkfifo(path, 0o600)
    _damage_each(project, fifo)


def test_truncated_entry_is_replaced(project):
    _damage_each(project, lambda p: p.write_bytes(p.read_bytes()[:40]))


METHODS = {"net.py": """
    import numpy as np


    class Net:
        def forward(self, x):
            return np.sin(x)


    NET = Net()


    def loss(x):
        return np.sum(NET.forward(x) * x)
"""}


def test_editing_a_method_of_a_global_instance_changes_the_key(project):
    write_files(project, METHODS)
    out = run(project, """
        import net
        from srcgrad.compiler import cache_keys
        seen = {}
        print(json.dumps({"before": cache_keys.describe(net.NET, seen)}))
    """)
    path = project / "net.py"
    path.write_text(path.read_text().replace("np.sin(x)", "np.cos(x)"))
    again = run(project, """
        import net
        from srcgrad.compiler import cache_keys
        print(json.dumps({"after": cache_keys.describe(net.NET, {})}))
    """)
    assert out["before"] != again["after"]
