"""What the TF-eager APIs cost over ``sg.value_and_grad`` on the same function.

The model's parameters are Variables read as globals; each API runs the generated code:

- ``value_and_grad``: ``sg.value_and_grad(loss)(x, y)`` (the Variables are constants);
- ``implicit``:       ``sg.implicit_value_and_gradients(loss)(x, y)``;
- ``tape``:           ``with sg.GradientTape() as t: l = loss(x, y)`` then
                      ``t.gradient(l, [W, b])`` (``loss`` is ``@sg.differentiable``).

Each figure is the best of several repeats (microseconds per call); the overhead is
relative to ``value_and_grad``. Run: ``python benchmarks/eager_overhead.py [--quick]``.
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np

import srcgrad as sg

rng = np.random.default_rng(0)
W = sg.Variable(rng.standard_normal((20, 10)) * 0.3)
b = sg.Variable(np.zeros(10))


@sg.differentiable
def loss(x, y):
    h = np.tanh(x @ W + b)
    return np.mean((h - y) ** 2)


def tape_step(x, y):
    with sg.GradientTape() as tape:
        value = loss(x, y)
    return value, tape.gradient(value, [W, b])


def measure(batch, repeat, number):
    x = rng.standard_normal((batch, 20))
    y = rng.standard_normal((batch, 10))
    candidates = {
        "value_and_grad": sg.value_and_grad(loss),
        "implicit": sg.implicit_value_and_gradients(loss),
        "tape": tape_step,
    }
    for fn in candidates.values():
        fn(x, y)   # compile once, outside the timing
    best = dict.fromkeys(candidates, float("inf"))
    for _ in range(repeat):   # interleaved, so a busy moment hurts every candidate
        for name, fn in candidates.items():
            run = timeit.timeit(lambda fn=fn: fn(x, y), number=number)
            best[name] = min(best[name], run / number * 1e6)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    options = parser.parse_args()
    repeat, number = (3, 200) if options.quick else (7, 1000)
    print(f"{'batch':>6} {'value_and_grad':>15} {'implicit':>10} {'tape':>10}   overhead")
    for batch in (1, 32, 256):
        t = measure(batch, repeat, number)
        base = t["value_and_grad"]
        print(f"{batch:>6} {base:>13.1f}us {t['implicit']:>8.1f}us {t['tape']:>8.1f}us   "
              f"implicit {100 * (t['implicit'] / base - 1):+.0f}%, "
              f"tape {100 * (t['tape'] / base - 1):+.0f}%")


if __name__ == "__main__":
    main()
