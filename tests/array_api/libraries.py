"""The array libraries the cross-library tests run on, each optional but NumPy.

``LIBRARIES`` names them; ``convert(name, value)`` turns a NumPy array (or a number)
into that library's array; ``to_numpy`` brings one back for comparison; ``library_of``
says which library an array belongs to (the test that nothing left its library)."""

import numpy as np
import pytest

LIBRARIES = ("numpy", "array_api_strict", "torch", "jax", "dask")


def module(name):
    """The library's module, or skip the test where it is not installed."""
    if name == "numpy":
        return np
    if name == "jax":
        jax = pytest.importorskip("jax")
        jax.config.update("jax_enable_x64", True)
        return pytest.importorskip("jax.numpy")
    if name == "dask":
        return pytest.importorskip("dask.array")
    return pytest.importorskip(name)


def convert(name, value):
    """``value`` (a NumPy array) as an array of library ``name``; numbers stay numbers."""
    if not isinstance(value, np.ndarray):
        return value
    lib = module(name)
    if name == "torch":
        return lib.asarray(value)
    if name == "dask":
        chunks = max(1, value.shape[0] // 2) if value.ndim else ()
        return lib.from_array(value, chunks=chunks)
    return lib.asarray(value)


def to_numpy(value):
    if hasattr(value, "compute"):
        value = value.compute()
    if type(value).__module__.startswith("torch"):
        return value.detach().numpy()
    if type(value).__module__.startswith("array_api_strict"):
        return np.asarray(value._array)
    return np.asarray(value)


def library_of(value):
    """The top-level module of ``value``'s type (``numpy``, ``torch``, ``jaxlib``...)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return "numpy"
    return {"jaxlib": "jax"}.get(type(value).__module__.split(".")[0],
                                 type(value).__module__.split(".")[0])
