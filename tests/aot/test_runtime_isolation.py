import sys

from tests.aot.helpers import last_json, run_python


def test_importing_the_runtime_loads_neither_gast_nor_the_compiler(tmp_path):
    result = run_python("""
        import json, sys
        import srcgrad.runtime
        print(json.dumps(sorted(m for m in sys.modules
                                if m == "gast" or m.startswith("gast.")
                                or m.startswith(("srcgrad.compiler", "srcgrad.api")))))
    """, cwd=tmp_path)
    assert last_json(result) == []


def test_public_names_still_load_on_first_use():
    import srcgrad as sg

    assert callable(sg.grad) and callable(sg.defelementwise)
    assert "grad" in dir(sg)
    assert sg.compiler is sys.modules["srcgrad.compiler"]
