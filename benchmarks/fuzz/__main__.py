"""The differential fuzzer: random programs, each checked against finite differences.

    python -m benchmarks.fuzz --n 500 [--seed S] [--jobs J] [--out DIR] [--time-budget SECONDS]
                              [--constructs all|base|families]

Program ``k`` is ``generate(seed + k)``; its verdict is ``ok``, ``wrong`` (a derivative
differs from central finite differences, with no error), ``crashed`` (an internal
error), ``refused`` (``TransformError``/``MissingRuleError``, counted by construct),
``skipped`` (every point tried had a branch flip in its stencil) or ``invalid`` (the
program itself failed: a generator bug). Failures are shrunk and saved under ``--out``
as reproducer folders (``program.py`` + ``case.json``, the format of ``tests/cases``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import time

from benchmarks.fuzz import cases, oracle, runner
from benchmarks.fuzz.generate import CONSTRUCTS
from benchmarks.fuzz.parallel import checked
from benchmarks.fuzz.shrink import shrink


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=500, help="programs to generate")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first program")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes checking programs in parallel")
    parser.add_argument("--out", default=None, help="folder for shrunk reproducers")
    parser.add_argument("--modes", default=",".join(oracle.MODES),
                        help="comma-separated subset of " + ",".join(oracle.MODES))
    parser.add_argument("--hvp-every", type=int, default=3,
                        help="check hvp on every k-th program (it compiles forward mode over "
                             "the generated gradient: the slowest check)")
    parser.add_argument("--time-budget", type=float, default=None,
                        help="stop generating after this many seconds")
    parser.add_argument("--constructs", choices=CONSTRUCTS, default="all",
                        help="'base': only the first generator's constructs (the programs "
                             "seeds gave before the recorded cases' constructs were added); "
                             "'families': objects, containers, exceptions, generators, "
                             "functions as values, *args, nested derivatives, starred "
                             "targets (benchmarks/fuzz/families.py), counted by family")
    parser.add_argument("--shrink", type=int, default=10,
                        help="failures to shrink and save (one per class first)")
    parser.add_argument("--shrink-budget", type=float, default=60.0,
                        help="seconds spent shrinking one failure")
    return parser.parse_args(argv)


def failure_class(verdict):
    """What groups failures: the outcome, the mode and, for a crash, the error without
    its numbers and shapes."""
    if verdict.outcome == "crashed":
        text = re.sub(r"\(.*?\)|\[.*?\]|\d+", "#", verdict.detail)
        return f"crashed/{verdict.mode}: {text[:90]}"
    if verdict.outcome == "wrong":   # a wrong value: the primal ran other than in Python
        what = "value" if "value " in verdict.detail else "derivative"
        return f"wrong/{verdict.mode}: {what}"
    return f"{verdict.outcome}/{verdict.mode}"


def fuzz(n, seed=0, modes=oracle.MODES, time_budget=None, log=None, hvp_every=1, jobs=1,
         constructs="all", by_family=None):
    """Check programs ``seed .. seed + n - 1``; return (counts, failures, refusals,
    by_mode). With ``time_budget``, programs still unchecked when it runs out are not
    counted. ``by_family``: a Counter filled with ``(family, verdict)`` for each family
    a program draws from (``--constructs families``); a ``Timeout`` counts as ``hung``,
    a refusal by its construct."""
    counts, refusals, by_mode = collections.Counter(), collections.Counter(), \
        collections.Counter()
    failures = []    # (seed, program, outcome)
    started = time.monotonic()
    results = checked(range(seed, seed + n), modes, hvp_every, jobs, constructs)
    for k, program, outcome in results:
        verdict = outcome.verdict
        counts[verdict.outcome] += 1
        if by_family is not None:
            for family in sorted(f[7:] for f in program.features if f.startswith("family:")):
                by_family[family, family_verdict(verdict)] += 1
        if verdict.mode:
            by_mode[f"{verdict.outcome}/{verdict.mode}"] += 1
        if verdict.outcome == "refused":
            refusals[verdict.construct] += 1
            if log:
                print(f"seed {k}: refused in {verdict.mode}: {verdict.detail}", file=log)
        if verdict.outcome in ("wrong", "crashed"):
            failures.append((k, program, outcome))
            if log:
                print(f"seed {k}: {verdict.outcome} in {verdict.mode}: {verdict.detail}",
                      file=log, flush=True)
        done = sum(counts.values())
        if log and done % 500 == 0:
            print(f"{done} programs, {time.monotonic() - started:.0f} s: {dict(counts)}",
                  file=log, flush=True)
        if time_budget is not None and time.monotonic() - started > time_budget:
            results.close()
            break
    failures.sort(key=lambda failure: failure[0])
    counts["programs"] = sum(counts[o] for o in ("ok", "wrong", "crashed", "refused",
                                                  "skipped", "invalid"))
    return counts, failures, refusals, by_mode


def family_verdict(verdict):
    """``ok``, ``wrong/MODE``, ``hung/MODE``, ``crashed/MODE: error`` or ``refused:
    construct``."""
    if verdict.outcome == "crashed" and "Timeout" in verdict.detail:
        return f"hung/{verdict.mode}"
    if verdict.outcome == "crashed":
        return failure_class(verdict)
    if verdict.outcome == "refused":
        return f"refused: {verdict.construct[:100]}"
    return verdict.outcome if verdict.outcome != "wrong" else f"wrong/{verdict.mode}"


def report_families(by_family, out=sys.stdout):
    families = sorted({family for family, _ in by_family})
    for family in families:
        total = sum(n for (f, _), n in by_family.items() if f == family)
        print(f"  family {family}: {total} programs", file=out)
        for (f, what), number in sorted(by_family.items(), key=lambda kv: -kv[1]):
            if f == family:
                print(f"    {number:6d} {what}", file=out)


def same_failure(program, args, verdict, modes):
    def still_fails(source):
        found = runner.run(source, program.func, program.arg_specs, program.seed,
                           modes=(verdict.mode,), args=args).verdict
        return found.outcome == verdict.outcome and failure_class(found) == \
            failure_class(verdict)
    return still_fails


def shrink_and_save(failure, out_dir, budget, modes):
    seed, program, outcome = failure
    verdict = outcome.verdict
    args = verdict.point or outcome.args
    small = shrink(program.source, same_failure(program, args, verdict, modes), budget)
    final = runner.run(small, program.func, program.arg_specs, seed, (verdict.mode,),
                       args=args)
    f, entry = runner.load(small, program.func, len(args))
    try:
        return cases.save(out_dir, f"{verdict.outcome}-{verdict.mode}-{seed}", small,
                          program.func, program.arg_specs, args, final.verdict, f,
                          {"seed": seed, "class": failure_class(verdict)})
    finally:
        runner.unload(entry)


def report(counts, refusals, by_mode, failures, elapsed, out=sys.stdout):
    print(f"{counts['programs']} programs in {elapsed:.0f} s: " + ", ".join(
        f"{counts[o]} {o}" for o in ("ok", "wrong", "crashed", "refused", "skipped",
                                      "invalid")), file=out)
    for key, number in sorted(by_mode.items()):
        print(f"  {key}: {number}", file=out)
    classes = collections.Counter(failure_class(o.verdict) for _, _, o in failures)
    for key, number in classes.most_common():
        print(f"  class {key}: {number}", file=out)
    for construct, number in refusals.most_common():
        print(f"  refused {number}: {construct}", file=out)


def main(argv=None):
    options = _arguments(argv)
    os.environ["SRCGRAD_CACHE"] = "0"   # thousands of one-off programs
    modes = tuple(m for m in options.modes.split(",") if m)
    started = time.monotonic()
    by_family = collections.Counter()
    counts, failures, refusals, by_mode = fuzz(options.n, options.seed, modes,
                                               options.time_budget, log=sys.stdout,
                                               hvp_every=options.hvp_every,
                                               jobs=options.jobs,
                                               constructs=options.constructs,
                                               by_family=by_family)
    elapsed = time.monotonic() - started
    report(counts, refusals, by_mode, failures, elapsed)
    report_families(by_family)
    if options.out:
        os.makedirs(options.out, exist_ok=True)
        with open(os.path.join(options.out, "summary.json"), "w") as fh:
            json.dump({"counts": counts, "by_mode": by_mode, "refusals": refusals,
                       "failures": [[k, failure_class(o.verdict), o.verdict.detail]
                                    for k, _, o in failures],
                       "by_family": {f"{family}: {what}": n
                                     for (family, what), n in sorted(by_family.items())},
                       "seconds": round(elapsed), "command": " ".join(sys.argv)},
                      fh, indent=1)
    if options.out and failures:
        firsts, seen = [], set()
        for failure in failures:   # one per class first, then the rest
            key = failure_class(failure[2].verdict)
            (firsts if key not in seen else []).append(failure)
            seen.add(key)
        ordered = firsts + [f for f in failures if f not in firsts]
        for failure in ordered[:options.shrink]:
            folder = shrink_and_save(failure, options.out, options.shrink_budget, modes)
            print(f"saved {folder}")
    runner.cleanup()
    return 1 if counts["wrong"] or counts["crashed"] else 0


if __name__ == "__main__":
    sys.exit(main())
