"""Every recorded case (a folder with program.py + case.json) against central finite
differences computed now, in reverse and forward mode."""

import importlib.util
import json
import os
import re
import sys

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDERS = sorted(d for d in os.listdir(HERE)
                 if os.path.isfile(os.path.join(HERE, d, "case.json")))


def refusal(folder, check):
    """What a case that must be refused says (``refused`` in case.json: a message, or
    one per check, "reverse", "forward" or "hvp and eager"), else None: srcgrad cannot
    follow it and says so at the user's line rather than guess."""
    with open(os.path.join(HERE, folder, "case.json")) as fh:
        refused = json.load(fh).get("refused")
    return refused.get(check) if isinstance(refused, dict) else refused


CASES = [pytest.param(folder, id=folder) for folder in FOLDERS]

# The class of bug each case found (the fix is for the class).
CLASSES = {
    "crashed-1000358": "a branch that reassigns its own test (`and` lowering)",
    "crashed-1000533": "a branch that reassigns its own test (`and` lowering)",
    "crashed-1000547": "`x[:, e] op= v`: the index tuple evaluated as a value",
    "crashed-1000674": "a branch that reassigns its own test (`and` lowering)",
    "crashed-1001167": "`x[:, e] op= v`: the index tuple evaluated as a value",
    "crashed-1001169": "a branch that reassigns its own test (`and` lowering)",
    "crashed-1001336": "`x[:, e] op= v`: the index tuple evaluated as a value",
    "crashed-1001523": "a branch that reassigns its own test (`and` lowering)",
    "crashed-1001814": "`x[:, e] op= v`: the index tuple evaluated as a value",
    "wrong-1000004": "a branch that reassigns its own test (`and` lowering)",
    "wrong-1000159": "a view read before a write into its array, read again backward",
    "wrong-1000412": "a view read before a write into its array, read again backward",
    "wrong-1000855": "a view read before a write into its array, read again backward",
    "wrong-1001051": "a view read before a write into its array, read again backward",
    "wrong-1001097": "a branch that reassigns its own test (`and` lowering)",
    "wrong-1001152": "a view read before a write into its array, read again backward",
    "wrong-1001374": "a view read before a write into its array, read again backward",
}
RTOL, ATOL = 1e-4, 1e-6


def load_case(folder):
    path = os.path.join(HERE, folder)
    with open(os.path.join(path, "case.json")) as fh:
        case = json.load(fh)
    name = "recorded_" + folder.replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, os.path.join(path, "program.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    shapes = [tuple(shape) for _, shape in case["arg_specs"]]
    args = [float(a) if s == () else np.array(a, dtype=np.float64)
            for a, s in zip(case["inputs"], shapes)]
    return getattr(module, case["func"]), args


def fresh_args(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def test_every_folder_names_its_class():
    for folder in FOLDERS:
        with open(os.path.join(HERE, folder, "case.json")) as fh:
            assert folder in CLASSES or json.load(fh).get("class"), folder


@pytest.mark.parametrize("folder", CASES)
def test_reverse_mode_matches_finite_differences(folder):
    f, args = load_case(folder)
    if refusal(folder, "reverse"):
        with pytest.raises(sg.TransformError, match=re.escape(refusal(folder, "reverse"))):
            sg.grad(f, wrt=tuple(range(len(args))))(*fresh_args(args))
        return
    got = sg.grad(f, wrt=tuple(range(len(args))))(*fresh_args(args))
    for i, g in enumerate(got):
        want = numeric_grad(lambda *a: f(*fresh_args(a)), args, i)
        np.testing.assert_allclose(g, want, rtol=RTOL, atol=ATOL,
                                   err_msg=f"{folder}: argument {i}")


@pytest.mark.parametrize("folder", CASES)
def test_forward_mode_matches_finite_differences(folder):
    f, args = load_case(folder)
    rng = np.random.default_rng(7)
    tangents = tuple(rng.standard_normal(np.shape(a)) if np.ndim(a) else
                     float(rng.standard_normal()) for a in args)
    if refusal(folder, "forward"):
        with pytest.raises(sg.TransformError, match=re.escape(refusal(folder, "forward"))):
            sg.jvp(f, wrt=tuple(range(len(args))))(*fresh_args(args), tangents)
        return
    _, got = sg.jvp(f, wrt=tuple(range(len(args))))(*fresh_args(args), tangents)
    eps = 1e-6
    plus = [a + eps * t for a, t in zip(args, tangents)]
    minus = [a - eps * t for a, t in zip(args, tangents)]
    want = (f(*plus) - f(*minus)) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=folder)


@pytest.mark.parametrize("folder", CASES)
def test_hvp_and_eager_apis_match_finite_differences(folder):
    from benchmarks.fuzz import runner

    f, args = load_case(folder)
    with open(os.path.join(HERE, folder, "program.py")) as fh:
        source = fh.read()
    with open(os.path.join(HERE, folder, "case.json")) as fh:
        case = json.load(fh)
    specs = [(name, tuple(shape)) for name, shape in case["arg_specs"]]
    verdict = runner.run(source, case["func"], specs, 11, ("hvp", "eager"), args=args).verdict
    if refusal(folder, "hvp and eager"):
        assert verdict.outcome == "refused" and refusal(folder, "hvp and eager") in \
            verdict.detail, verdict
        return
    assert verdict.outcome in ("ok", "skipped"), (folder, verdict)
