"""Helpers in a module of their own (not inlined into the functions under test): they
keep what they are given where a caller could read it back."""

import numpy as np

KEPT = []


def keep(value):
    KEPT.append(value)


def scaled_and_kept(x, tracker):
    """Called with a result: a differentiated callee that lets its value out."""
    y = x * 2.0
    tracker.last = y
    return y


def fill(buffer, value):
    buffer[:] = value


def last_kept():
    return KEPT[-1]


def pure_square(x):
    return np.square(x)


def plotted_when_given(x, ax):
    """A callee that plots what it computes when given axes (`if ax:`)."""
    y = np.sin(x) * x
    if ax:
        ax.plot(x, y)
    return y


class Model:
    def forward(self, x):
        y = x * 2.0
        self.last = y
        return y
