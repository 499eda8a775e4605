"""Array methods map onto the NumPy rows that share their semantics.

``x.sum(axis=0)`` is differentiated as ``np.sum(x, axis=0)``, ``x.astype(t)`` as the cast
``np.asarray(x, t)``; a method that takes its shape as separate arguments
(``x.reshape(3, 4)``) packs them into the named parameter.
"""

import numpy as np

from srcgrad import runtime

# method name -> (numpy function, parameter that collects extra positional arguments)
ARRAY_METHODS = {
    "sum": (np.sum, None), "mean": (np.mean, None), "prod": (np.prod, None),
    "max": (np.max, None), "min": (np.min, None), "dot": (np.dot, None),
    "ravel": (np.ravel, None), "flatten": (np.ravel, None), "copy": (np.copy, None),
    "squeeze": (np.squeeze, None), "cumsum": (np.cumsum, None), "clip": (np.clip, None),
    "values": (runtime.dict_values, None), "items": (runtime.dict_items, None),
    "get": (runtime.dict_get, None),
    "reshape": (np.reshape, "shape"), "transpose": (np.transpose, "axes"),
    "swapaxes": (np.swapaxes, None), "trace": (np.trace, None), "repeat": (np.repeat, None),
    "std": (np.std, None), "var": (np.var, None), "astype": (np.asarray, None),
    "tolist": (runtime.array_tolist, None),
}
NONDIFF_METHODS = {"argmax", "argmin", "argsort", "nonzero", "any", "all",
                   "__len__", "count", "index", "keys"}
# Attributes that are linear functions of the array.
ARRAY_ATTRIBUTES = {"T": "np.transpose(g)", "real": "g", "flat": None}


def is_array_attribute(attr):
    """Is ``x.attr`` something an array has (``.shape``, ``.T``, ``.sum``)? Reading it
    says nothing about ``x`` being a container."""
    from srcgrad.rules import NONDIFF_ATTRIBUTES  # (the package imports this module)

    return (attr in NONDIFF_ATTRIBUTES or attr in ARRAY_ATTRIBUTES or attr in ARRAY_METHODS
            or attr in NONDIFF_METHODS)
