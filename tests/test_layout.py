"""The package's layout: at most four loose modules at the root, no import cycle between
its top-level units (``tools/check_layout.py``; imports inside functions count)."""

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_layout.py"


@pytest.fixture(scope="module")
def layout():
    spec = importlib.util.spec_from_file_location("check_layout", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_srcgrad_has_few_root_modules_and_no_cycle_between_units(layout):
    assert layout.problems() == []


def test_public_module_paths_are_kept():
    import srcgrad
    import srcgrad.api.optimizers
    import srcgrad.optimizers
    from srcgrad.typing import Wrt

    assert srcgrad.optimizers is srcgrad.api.optimizers
    assert srcgrad.optimizers.__spec__.name == "srcgrad.api.optimizers"
    assert Wrt is srcgrad.api.typing.Wrt


def write_package(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_checker_finds_a_cycle_hidden_in_a_function_and_loose_modules(layout, tmp_path):
    root = tmp_path / "srcgrad"
    write_package(root, {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/core.py": """
            def late():
                from srcgrad.high import driver   # deferred: still an edge
                return driver
            """,
        "high/__init__.py": "",
        "high/driver.py": "from srcgrad.low import core\n",
        **{f"loose{i}.py": "" for i in range(5)},
    })
    found = layout.problems(root)
    assert any("5 modules at the root" in line for line in found)
    assert any("cycle" in line and "high" in line and "low" in line for line in found)


def test_the_checker_follows_relative_imports(layout, tmp_path):
    root = tmp_path / "srcgrad"
    write_package(root, {
        "__init__.py": "",
        "a/__init__.py": "from ..b import thing\n",
        "b/__init__.py": "from .inner import thing\n",
        "b/inner.py": "from .. import a\nthing = 1\n",
    })
    assert layout.unit_graph(root) == {"a": {"b"}, "b": {"a"}}
    assert layout.problems(root) == ["import cycle between units: a <-> b"]
