"""The differential fuzzer (``benchmarks.fuzz``): its programs run, it catches a wrong
derivative rule and shrinks the program, and a fixed sample of programs checks out."""

import json
import os

import numpy as np
import pytest

from benchmarks.fuzz import cases, runner
from benchmarks.fuzz.__main__ import fuzz, shrink_and_save
from benchmarks.fuzz.generate import generate
from benchmarks.fuzz.shrink import shrink
from srcgrad.rules.registry import REGISTRY, Registry, _key, defelementwise

SAMPLE_SEED, SAMPLE_SIZE = 90000, 40


def test_generated_programs_run_and_give_a_finite_scalar():
    for seed in range(150):
        program = generate(seed)
        f, entry = runner.load(program.source, program.func, len(program.arg_specs))
        try:
            with np.errstate(all="raise", under="ignore"):
                value = f(*runner.inputs(program.arg_specs, seed))
        finally:
            runner.unload(entry)
        assert np.shape(value) == () and np.isfinite(value), (seed, program.source)


def test_the_generator_covers_the_constructs_it_promises():
    features = set()
    for seed in range(300):
        features |= generate(seed).features
    assert {"for", "while", "exit", "return", "if", "helper", "helper returning a tuple",
            "write", "augassign", "alias", "write through a view", "out=", "list", "dict",
            "zip", "comprehension", "swap", "while True with a break counter",
            "while counting at the end", "zeros-array slot writes", "module-level constant",
            "tuple assignment", "simultaneous update"} <= features


def test_base_constructs_draw_the_first_generators_programs():
    program = generate(9107335, constructs="base")
    assert "h[0] *= p" in program.source and "while True" not in program.source
    assert generate(9107335).source != program.source


def test_shrink_keeps_what_the_predicate_needs_and_drops_the_rest():
    source = generate(5).source + "\n\ndef g(x):\n    y = np.tanh(x) * 2.0\n    return y\n"
    small = shrink(source, lambda text: "np.tanh(x)" in text, budget=20)
    assert "np.tanh(x)" in small and len(small) < len(source) / 3


def test_a_wrong_derivative_rule_is_caught_and_shrunk(monkeypatch, tmp_path):
    wrong = defelementwise(np.tanh, "1.25 - ans ** 2", registry=Registry())
    monkeypatch.setitem(REGISTRY._rules, _key(np.tanh), wrong)
    counts, failures, _, _ = fuzz(12, seed=0, modes=("reverse",))
    assert counts["wrong"] > 0
    folder = shrink_and_save(failures[0], str(tmp_path), 40, ("reverse",))
    with open(os.path.join(folder, "program.py")) as fh:
        program = fh.read()
    with open(os.path.join(folder, "case.json")) as fh:
        case = json.load(fh)
    assert "np.tanh" in program and program.count("\n") <= 12, program
    assert case["outcome"] == "wrong" and case["mode"] == "reverse"
    # The saved case is replayable: its inputs and finite-difference gradient.
    args = cases.load_inputs(case)
    assert len(args) == len(case["expected"]) == len(case["arg_specs"])


@pytest.mark.parametrize("seed", range(SAMPLE_SEED, SAMPLE_SEED + SAMPLE_SIZE))
def test_a_fixed_sample_has_no_wrong_or_crashed_program(seed):
    counts, failures, _, _ = fuzz(1, seed=seed, hvp_every=4)
    assert not failures, [(k, o.verdict) for k, _, o in failures]
    assert counts["invalid"] == 0


def test_worker_processes_give_the_verdicts_of_one_process():
    serial, _, _, _ = fuzz(4, seed=90018, modes=("reverse", "forward"))
    parallel, _, _, _ = fuzz(4, seed=90018, modes=("reverse", "forward"), jobs=2)
    assert parallel == serial and serial["programs"] == 4


def test_fuzzing_leaves_the_disk_cache_setting_as_it_was(monkeypatch):
    monkeypatch.delenv("SRCGRAD_CACHE", raising=False)
    fuzz(1, seed=90001, modes=("reverse",))
    assert "SRCGRAD_CACHE" not in os.environ
    monkeypatch.setenv("SRCGRAD_CACHE", "1")
    fuzz(1, seed=90001, modes=("reverse",))
    assert os.environ["SRCGRAD_CACHE"] == "1"


def saturated(b, x):
    it = 0
    while it < 4:
        it += 1
        it2 = 0
        while it2 < 4:
            it2 += 1
            x += x * x   # overflows to inf: np.tanh(inf) is 1, its derivative 0 * inf
    return np.tanh(x)


def test_a_program_that_overflows_is_no_test_of_its_derivative():
    from benchmarks.fuzz import oracle

    args = [np.zeros((2, 3)), 0.28664196326036895]   # (fuzz seed 9940902, shrunk)
    verdict = oracle.check(saturated, args, np.random.default_rng(0), modes=("reverse",))
    assert verdict.outcome == "skipped"
    assert oracle.Oracle(saturated, [np.zeros((2, 3)), 1e-3]).overflows() is False
    verdict = oracle.check(saturated, [np.zeros((2, 3)), 1e-3], np.random.default_rng(0),
                           modes=("reverse", "forward"))
    assert verdict.outcome == "ok"


FAMILY_SAMPLE_SEED, FAMILY_SAMPLE_SIZE = 70000, 16


def test_the_families_cover_every_family():
    from benchmarks.fuzz.families import FAMILIES, generate_family

    seen = set()
    for seed in range(60):
        seen |= generate_family(seed).features
    assert {f"family:{family}" for family in FAMILIES} <= seen


@pytest.mark.parametrize("seed", range(FAMILY_SAMPLE_SEED,
                                       FAMILY_SAMPLE_SEED + FAMILY_SAMPLE_SIZE))
def test_a_fixed_sample_of_the_families_has_no_wrong_crashed_or_hung_program(seed):
    import collections

    by_family = collections.Counter()
    counts, failures, _, _ = fuzz(1, seed=seed, hvp_every=4, constructs="families",
                                  by_family=by_family)
    assert not failures, [(k, o.verdict) for k, _, o in failures]
    assert counts["invalid"] == 0 and sum(by_family.values()) >= 1


def _family_seeds(family, needle, count, start=300000):
    """The first ``count`` seeds from ``start`` whose ``family`` program holds ``needle``."""
    from benchmarks.fuzz.families import generate_family

    seeds = []
    for seed in range(start, start + 2000):
        if needle in generate_family(seed, family).source:
            seeds.append(seed)
            if len(seeds) == count:
                break
    return seeds


@pytest.mark.parametrize("family,needle,seed", [
    ("containers", "del ", seed) for seed in _family_seeds("containers", "del ", 4)] + [
    ("exceptions", "for k in", seed) for seed in _family_seeds("exceptions", "for k in", 3)] + [
    ("exceptions", "while ", seed) for seed in _family_seeds("exceptions", "while ", 2)] + [
    ("functions", "fs", seed) for seed in _family_seeds("functions", "fs", 3)])
def test_family_programs_of_the_newer_constructs_check_out_in_every_mode(family, needle,
                                                                          seed):
    """``del`` of list slices and dict keys, a ``for`` or ``while`` loop in a ``try``
    body, containers of functions whose items are called: reverse, forward and hvp
    against finite differences (each derivative asked for twice)."""
    from benchmarks.fuzz.families import generate_family

    program = generate_family(seed, family)
    with runner.disk_cache_off():
        outcome = runner.run(program.source, program.func, program.arg_specs, seed,
                             ("reverse", "forward", "hvp"))
    assert outcome.verdict.outcome == "ok", (program.source, outcome.verdict)


def test_a_program_differentiating_inside_gets_time_to_compile_its_derivatives():
    """A ``nested`` program compiles ``sg.grad(inner)`` on its first run; under the
    plain limit a loaded machine made that an ``invalid`` program."""
    from benchmarks.fuzz.families import generate_family

    nested = generate_family(3, "nested").source
    plain = generate_family(3, "containers").source
    assert runner.primal_limit(nested) == runner.DIFFERENTIATING_PRIMAL_SECONDS
    assert runner.primal_limit(plain) == runner.PRIMAL_SECONDS < 10
