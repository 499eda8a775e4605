"""A module whose global ``np`` is not NumPy (``numpy`` is imported under its own name)."""

import numpy


class NotNumPy:
    """Named like NumPy's functions, computing other things."""

    def sin(self, x):
        return 2.0 * numpy.sin(x)

    def sum(self, x):
        return numpy.sum(x) * 3.0


np = NotNumPy()
math = NotNumPy()


def reads_np(x):
    return numpy.sum(np.sin(x))


def reads_math(x):
    return numpy.sum(x * x) + math.sum(x)
