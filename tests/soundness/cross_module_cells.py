"""Cells the programs of ``test_cross_module_results`` import: called as units of their
own (not inlined), some proven to return only new arrays (``analysis.fresh_results``),
some returning their argument, a view of it, or what they kept."""

import numpy as np

KEPT = []


def squash(v):
    return 1.0 / (1.0 + np.exp(-v))


def fresh_cell(weight, hidden, cell, inp):
    gates = np.concatenate((inp, hidden)) * weight
    size = hidden.shape[0]
    forget = squash(gates[0:size])
    cell = cell * forget + np.tanh(gates[size:])
    hidden = np.tanh(cell) * 0.5
    return hidden, cell


def returns_argument(weight, hidden, cell, inp):
    return hidden, cell * np.tanh(inp * weight[0:inp.shape[0]])


def returns_view(weight, hidden, cell, inp):
    cell = cell * np.tanh(inp * weight[0:inp.shape[0]])
    return hidden[0:hidden.shape[0]], cell


def returns_kept(weight, hidden, cell, inp):
    keep(hidden)   # a user function may keep what it is given
    return np.tanh(cell * weight[0:cell.shape[0]]) * 1.0, cell * inp


def keep(v):
    KEPT.append(v)
    return v


def returns_list_repeat(weight, hidden, cell, inp):
    return (hidden, np.tanh(cell)) * 1, cell * inp
