"""Python operators map onto the NumPy rows that share their semantics."""

import dataclasses

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


# The tangents of ``a @ b`` and ``a % b`` written with the operators themselves, which
# every array library defines: the NumPy rows call ``np.matmul`` / ``np.floor_divide``,
# which would turn another library's arrays into NumPy's.
_OPERATOR_TANGENTS = {
    gast.MatMult: {"x1": "x1_dot @ x2", "x2": "x1 @ x2_dot"},
}
_OPERATOR_PARTIALS = {gast.Mod: {"y": ("-(x // y)", "g * -(x // y)")}}
_DERIVED: dict = {}


def operator_rule(op_type):
    """The rule row of the binary or unary operator ``op_type`` (a gast operator class):
    the NumPy row that shares its semantics, with its tangent written with operators."""
    from srcgrad.rules.registry import REGISTRY

    func = BINARY.get(op_type) or UNARY[op_type]
    rule = REGISTRY.lookup(func)
    tangent = _OPERATOR_TANGENTS.get(op_type)
    partials = _OPERATOR_PARTIALS.get(op_type)
    if (tangent is None and partials is None) or rule is None:
        return rule
    key = (op_type, id(rule))
    derived = _DERIVED.get(key)
    if derived is None or derived[0] is not rule:
        new = dataclasses.replace(rule)
        if tangent is not None:
            new.tangent = dict(tangent)
        if partials is not None and set(new.params[:2]) == {"x", "y"}:
            new.tangent = dict(rule.tangent)
            new.adjoints = dict(rule.adjoints)
            for param, (partial, adjoint) in partials.items():
                new.tangent[param], new.adjoints[param] = partial, adjoint
        derived = _DERIVED[key] = (rule, new)
    return derived[1]
