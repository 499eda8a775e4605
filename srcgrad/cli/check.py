"""``python -m srcgrad check FILE.py:FUNC [--wrt NAME ...] [--shapes NAME=3,4 ...]``:
a directional finite-difference check of the generated gradient at random inputs.

Inputs: a parameter named in ``--shapes`` gets a random array of that shape (``NAME=``
for a scalar); otherwise a parameter with a default keeps it (a float or array default
is replaced by random values of its shape when the parameter is differentiated); ``--set
NAME=VALUE`` fixes one (``n=5``); any other parameter gets a random array of shape
``(3,)``. ``--wrt`` defaults to every
parameter that received random values. Exits 1 when the check fails.
"""

from __future__ import annotations

import ast

import numpy as np

from srcgrad.cli.errors import UsageError
from srcgrad.cli.load import load_function, resolve_wrt
from srcgrad.frontend.freshness import own_signature

DEFAULT_SHAPE = (3,)


def add_parser(subparsers):
    parser = subparsers.add_parser(
        "check", help="compare the generated gradient with central finite differences")
    parser.add_argument("target", help="FILE.py:FUNC")
    parser.add_argument("--wrt", action="append",
                        help="parameter to differentiate (repeatable; default: every "
                             "parameter given random values)")
    parser.add_argument("--shapes", nargs="+", default=[], metavar="NAME=DIMS",
                        help="input shapes, e.g. x=3,4 w=4 b= (empty: a scalar)")
    parser.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE", dest="values",
                        help="fixed arguments as Python literals, e.g. n=5 mode='fast'")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--positive", action="store_true",
                        help="draw inputs in [0.5, 1.5) (for log, sqrt...)")
    parser.add_argument("--eps", type=float, default=1e-6, help="finite-difference step")
    parser.add_argument("--rtol", type=float, default=1e-5, help="tolerated relative error")
    return parser


def parse_shapes(items):
    """``["x=3,4", "b="]`` -> ``{"x": (3, 4), "b": ()}``."""
    shapes = {}
    for item in items:
        name, sep, dims = item.partition("=")
        if not sep or not name.isidentifier():
            raise UsageError(f"--shapes expects NAME=DIMS (like x=3,4), got {item!r}")
        try:
            shapes[name] = tuple(int(d) for d in dims.strip("()").split(",") if d.strip())
        except ValueError:
            raise UsageError(f"bad dimensions in --shapes {item!r}") from None
    return shapes


def parse_values(items):
    """``["n=5"]`` -> ``{"n": 5}`` (each value a Python literal)."""
    values = {}
    for item in items:
        name, sep, text = item.partition("=")
        try:
            if not sep or not name.isidentifier():
                raise ValueError(item)
            values[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise UsageError(f"--set expects NAME=LITERAL, got {item!r}") from None
    return values


def make_inputs(fn, shapes, wrt, rng, positive=False, values=None):
    """``(args, random_names)``: one argument per positional parameter of ``fn``."""
    values = values or {}

    def draw(shape):
        values = rng.uniform(0.5, 1.5, shape) if positive else rng.standard_normal(shape)
        return float(values) if shape == () else values

    args, randomised = [], []
    for param in own_signature(fn).parameters.values():
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            continue
        default = param.default
        if param.name in values:
            args.append(values[param.name])
            continue
        if param.name in shapes:
            shape = shapes[param.name]
        elif default is param.empty:
            shape = DEFAULT_SHAPE
        elif wrt and param.name in wrt and _is_float(default):
            shape = np.shape(default)
        else:
            args.append(default)
            continue
        args.append(draw(shape))
        randomised.append(param.name)
    unknown = (set(shapes) | set(values)) - set(own_signature(fn).parameters)
    if unknown:
        raise UsageError(f"no parameter named {', '.join(sorted(unknown))}")
    return args, randomised


def _is_float(value):
    return np.asarray(value).dtype.kind == "f" if value is not None else False


def run(args):
    from srcgrad.api import functional as api
    from srcgrad.testing import directional_check

    fn = load_function(args.target)
    plain, bound = api._target(fn)
    rng = np.random.default_rng(args.seed)
    inputs, randomised = make_inputs(plain, parse_shapes(args.shapes), args.wrt, rng,
                                     args.positive, parse_values(args.values))
    wrt = resolve_wrt(fn, tuple(args.wrt)) if args.wrt else tuple(randomised)
    if not wrt:
        raise UsageError("nothing to differentiate: name parameters with --wrt")
    result = directional_check(fn, inputs, wrt=wrt, eps=args.eps, rtol=args.rtol,
                               seed=args.seed)
    described = ", ".join(f"{name}: {_describe(value)}" for name, value
                          in zip(api.parameter_names(plain, bound), inputs))
    print(f"check {args.target} wrt {', '.join(wrt)} at {described} (seed {args.seed})")
    print(result.report())
    return 0 if result.ok else 1


def _describe(value):
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    return repr(value) if not isinstance(value, float) else "float"
