"""Python operators map onto the NumPy rows that share their semantics."""

import numpy as np

from srcgrad.syntax import gast

BINARY = {
    gast.Add: np.add, gast.Sub: np.subtract, gast.Mult: np.multiply,
    gast.Div: np.true_divide, gast.Pow: np.power, gast.MatMult: np.matmul,
    gast.Mod: np.mod,
}
UNARY = {gast.USub: np.negative}
# Operators whose results carry no derivative.
NONDIFF_BINARY = (gast.FloorDiv, gast.BitAnd, gast.BitOr, gast.BitXor, gast.LShift,
                  gast.RShift)
NONDIFF_UNARY = (gast.Not, gast.Invert)

SYMBOLS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.true_divide: "/",
           np.power: "**", np.matmul: "@", np.mod: "%"}
