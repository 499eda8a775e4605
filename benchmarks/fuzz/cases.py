"""Reproducer folders: ``program.py`` and ``case.json``, the format of ``tests/cases``.

``case.json`` holds the function's name, its arguments' names and shapes, the inputs,
the expected gradient w.r.t. every argument (central finite differences, step 1e-6), and
what was seen (outcome, mode, detail)::

    folder = save(out_dir, "wrong-17", source, "f", specs, args, verdict)
"""

from __future__ import annotations

import json
import os

import numpy as np

EPS = 1e-6


def central_gradient(f, args, index):
    """Central finite differences of ``f`` w.r.t. ``args[index]`` (f gets copies)."""
    def value(at):
        return float(f(*[a.copy() if isinstance(a, np.ndarray) else a for a in at]))

    x = args[index]
    if np.ndim(x) == 0:
        plus, minus = list(args), list(args)
        plus[index], minus[index] = x + EPS, x - EPS
        return (value(plus) - value(minus)) / (2 * EPS)
    out = np.zeros(np.shape(x))
    for i in np.ndindex(out.shape):
        xp, xm = np.array(x, dtype=float), np.array(x, dtype=float)
        xp[i] += EPS
        xm[i] -= EPS
        plus, minus = list(args), list(args)
        plus[index], minus[index] = xp, xm
        out[i] = (value(plus) - value(minus)) / (2 * EPS)
    return out


def _plain(value):
    return np.asarray(value, dtype=float).tolist()


def save(out_dir, name, source, func, specs, args, verdict, f=None, extra=None):
    folder = os.path.join(out_dir, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "program.py"), "w") as fh:
        fh.write(source if source.endswith("\n") else source + "\n")
    case = {
        "func": func,
        "arg_specs": [[n, list(shape)] for n, shape in specs],
        "inputs": [_plain(a) for a in args],
        "expected": [_plain(central_gradient(f, args, i)) for i in range(len(args))]
        if f is not None else None,
        "detail": verdict.detail,
        "outcome": verdict.outcome,
        "mode": verdict.mode,
        "expected_is": "central finite differences (step 1e-6) of func w.r.t. every "
                       "argument at inputs",
    }
    case.update(extra or {})
    with open(os.path.join(folder, "case.json"), "w") as fh:
        json.dump(case, fh, indent=1)
    return folder


def load_inputs(case):
    return [float(a) if tuple(shape) == () else np.array(a, dtype=np.float64)
            for a, (_, shape) in zip(case["inputs"], case["arg_specs"])]
