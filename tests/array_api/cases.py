"""Functions written against the array API standard, generated from templates.

Each case is the source of one function ``f(x, y)`` (``y`` unused by unary cases) that
takes its namespace from its inputs and returns a scalar, with the domains and shapes
of its inputs. ``build(case)`` compiles it with its source in ``linecache``, as a
function of a file would be, so srcgrad reads it.
"""

from __future__ import annotations

import linecache
import zlib

import numpy as np
from array_api_compat import array_namespace

HEADER = "def f(x, y):\n    xp = array_namespace(x, y)\n"

# name -> input domain (low, high)
UNARY = {
    "exp": (-1, 1), "expm1": (-1, 1), "log": (0.5, 2), "log1p": (0.1, 2), "log2": (0.5, 2),
    "log10": (0.5, 2), "sqrt": (0.5, 2), "square": (-1, 1), "sin": (-2, 2), "cos": (-2, 2),
    "tan": (-1, 1), "asin": (-0.8, 0.8), "acos": (-0.8, 0.8), "atan": (-2, 2),
    "sinh": (-1, 1), "cosh": (-1, 1), "tanh": (-2, 2), "asinh": (-2, 2), "acosh": (1.5, 3),
    "atanh": (-0.8, 0.8), "negative": (-1, 1), "positive": (-1, 1), "abs": (0.2, 1),
    "reciprocal": (0.5, 2),
}
BINARY = {
    "add": (-1, 1), "subtract": (-1, 1), "multiply": (-1, 1), "divide": (0.5, 2),
    "pow": (0.5, 2), "maximum": (-1, 1), "minimum": (-1, 1), "atan2": (0.5, 2),
    "hypot": (0.5, 2), "logaddexp": (-1, 1),
}
# (shape of x, shape of y): 0-d, size 1, broadcast both ways
SHAPES = [((), ()), ((1,), (1,)), ((3, 1), (4,)), ((2, 3), ()), ((), (2, 3))]
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "var", "std"]
AXES = [None, 0, 1, -1, (0, 1)]

# Shapes, products, selection, indexing and linalg: (source body, shape x, shape y, low, high)
STRUCTURAL = {
    "reshape": ("r = xp.reshape(x, (3, 2))\n    return xp.sum(r[0, ...] * xp.sin(r[1, ...]))",
                (2, 3), (), -1, 1),
    "permute_dims": ("r = xp.permute_dims(x, (1, 0)) @ y\n    return xp.sum(r * r)",
                     (2, 3), (2, 2), -1, 1),
    "matrix_transpose": ("return xp.sum(xp.sin(xp.matrix_transpose(x) @ y))", (2, 3), (2, 2),
                         -1, 1),
    "expand_dims": ("return xp.sum(xp.expand_dims(x, axis=0) * y)", (3,), (2, 3), -1, 1),
    "squeeze": ("return xp.sum(xp.exp(xp.squeeze(x, axis=1)))", (3, 1), (), -1, 1),
    "flip": ("return xp.sum(xp.flip(x, axis=0) * y)", (3, 2), (3, 2), -1, 1),
    "concat": ("c = xp.concat([x, y * x], axis=0)\n    return xp.sum(c * c)", (2, 3), (1, 3),
               -1, 1),
    "stack": ("s = xp.stack([x, xp.sin(y)], axis=1)\n    return xp.sum(s ** 3)", (3,), (3,),
              -1, 1),
    "matmul": ("return xp.sum(xp.tanh(xp.matmul(x, y)))", (2, 3), (3, 2), -1, 1),
    "matmul_vector": ("return xp.sum((x @ y) ** 2)", (2, 3), (3,), -1, 1),
    "vecdot": ("return xp.sum(xp.vecdot(x, y) ** 2)", (2, 3), (3,), -1, 1),
    "where": ("return xp.sum(xp.where(x > 0, x * y, xp.exp(y)))", (2, 3), (2, 3), -1, 1),
    "slicing": ("return xp.sum(x[1:, 0] * y[0, ::2]) + xp.sum(x[0, ...] ** 2)", (3, 2),
                (1, 4), -1, 1),
    "item": ("return x[0, 1] * y[1] + x[1, 0] ** 2", (2, 2), (3,), -1, 1),
    "inv": ("return xp.sum(xp.linalg.inv(x + 3.0 * y))", (3, 3), (3, 3), -0.2, 0.2),
    "det": ("return xp.linalg.det(x * y + 2.0)", (3, 3), (3, 3), -0.5, 0.5),
    "solve": ("return xp.sum(xp.linalg.solve(x + 3.0, y) ** 2)", (3, 3), (3, 2), 0.1, 0.5),
    "vector_norm": ("return xp.linalg.vector_norm(x * y, axis=1)[0]", (2, 3), (3,), 0.2, 1),
    "moveaxis": ("return xp.sum(xp.moveaxis(x, 0, 1) * y)", (2, 3), (3, 2), -1, 1),
    "broadcast_to": ("return xp.sum(xp.broadcast_to(x, (2, 3)) * y)", (1, 3), (2, 3), -1, 1),
    "real": ("return xp.sum(xp.real(x) * y)", (2, 3), (2, 3), -1, 1),
    "prod_all": ("return xp.prod(x * y)", (2, 3), (2, 3), 0.5, 1.5),
    "astype": ("return xp.sum(xp.astype(x, xp.float64) * y)", (2, 3), (3,), -1, 1),
}


def unary_source(name):
    return HEADER + f"    r = xp.{name}(x) * xp.sin(y)\n    return xp.sum(r * r)\n"


def binary_source(name):
    return HEADER + f"    r = xp.{name}(x, y)\n    return xp.sum(r * r)\n"


def reduction_source(name, axis, keepdims):
    return HEADER + (f"    r = xp.{name}(x * y, axis={axis!r}, keepdims={keepdims})\n"
                     "    return xp.sum(xp.sin(r))\n")


def cases():
    """Every case: (id, source, shape of x, shape of y, low, high)."""
    out = []
    for name, (low, high) in UNARY.items():
        out.append((f"unary-{name}", unary_source(name), (2, 3), (), low, high))
    for name, (low, high) in BINARY.items():
        for sx, sy in SHAPES:
            out.append((f"binary-{name}-{sx}-{sy}", binary_source(name), sx, sy, low, high))
    for name in REDUCTIONS:
        for axis in AXES:
            for keepdims in (False, True):
                out.append((f"reduce-{name}-{axis}-{keepdims}",
                            reduction_source(name, axis, keepdims), (3, 4), (4,), 0.5, 1.5))
    for name, (body, sx, sy, low, high) in STRUCTURAL.items():
        out.append((f"shape-{name}", HEADER + f"    {body}\n", sx, sy, low, high))
    return out


def build(case_id, source):
    """``f`` compiled from ``source`` under a file name of its own, in ``linecache``."""
    filename = f"<array api case {case_id}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"array_namespace": array_namespace}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["f"]


def inputs(case_id, shape_x, shape_y, low, high):
    """Inputs drawn from a generator seeded by the case's id (so a case is the same in
    every run and every library)."""
    rng = np.random.default_rng(zlib.crc32(case_id.encode()))
    x = rng.uniform(low, high, shape_x)
    y = rng.uniform(low, high, shape_y)
    return np.asarray(x), np.asarray(y)


def in_ci(case_id, library):
    """A deterministic sample of (case, library) pairs for CI: about one in sixty."""
    return zlib.crc32(f"{case_id}/{library}".encode()) % 60 == 0
