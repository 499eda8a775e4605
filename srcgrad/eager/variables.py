"""``Variable`` (a mutable parameter) and ``Tensor`` (an immutable value), TF-eager style.

Operators, comparisons and NumPy functions on them run through ``__array_ufunc__`` /
``__array_function__`` into ``eager.ops.apply``, which computes on plain values, returns
a ``Tensor`` and records the operation on every recording tape that tracks an input.
Inside compiled code a Variable is read through ``_sg.read_variable`` instead, so none
of this runs there.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from srcgrad.rules.methods import ARRAY_METHODS, NONDIFF_METHODS
from srcgrad.runtime.guards import check_array_types
from srcgrad.runtime.variables import ConstantBase, VariableBase

_COUNTER = itertools.count()
# Tensor, Variable and their subclasses: what a tape can track (exact types, so that
# "is any argument tracked" is one set operation)
TRACKED_TYPES: set[type] = set()
_COUNTER_LOCK = threading.Lock()


def _as_value(value):
    """The plain NumPy value behind ``value`` (a Tensor, Variable, number or array); an
    ndarray subclass whose operators mean something else (np.matrix) is refused."""
    if isinstance(value, (np.ndarray, np.generic)):
        if type(value) is not np.ndarray:
            check_array_types(value)
        return value
    if isinstance(value, (Tensor, VariableBase)):
        return value._value
    if isinstance(value, (bool, int, float, complex)):
        return np.asarray(value)[()]
    if isinstance(value, (list, tuple)):
        return np.asarray([_as_value(v) for v in value])
    return value


class _Arithmetic:
    """Python operators as NumPy ufunc calls, so one dispatch path serves both."""

    __slots__ = ()
    __array_priority__ = 100

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        TRACKED_TYPES.add(cls)

    def __add__(self, other):
        return np.add(self, other)

    def __radd__(self, other):
        return np.add(other, self)

    def __sub__(self, other):
        return np.subtract(self, other)

    def __rsub__(self, other):
        return np.subtract(other, self)

    def __mul__(self, other):
        return np.multiply(self, other)

    def __rmul__(self, other):
        return np.multiply(other, self)

    def __truediv__(self, other):
        return np.true_divide(self, other)

    def __rtruediv__(self, other):
        return np.true_divide(other, self)

    def __pow__(self, other):
        return np.power(self, other)

    def __rpow__(self, other):
        return np.power(other, self)

    def __matmul__(self, other):
        return np.matmul(self, other)

    def __rmatmul__(self, other):
        return np.matmul(other, self)

    def __mod__(self, other):
        return np.mod(self, other)

    def __floordiv__(self, other):
        return np.floor_divide(self, other)

    def __neg__(self):
        return np.negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return np.absolute(self)

    def __lt__(self, other):
        return np.less(self, other)

    def __le__(self, other):
        return np.less_equal(self, other)

    def __gt__(self, other):
        return np.greater(self, other)

    def __ge__(self, other):
        return np.greater_equal(self, other)

    def __eq__(self, other):
        return np.equal(self, other)

    def __ne__(self, other):
        return np.not_equal(self, other)

    __hash__ = object.__hash__

    def __getitem__(self, index):
        from srcgrad.eager import ops

        return ops.getitem(self, index)

    def __getattr__(self, name):
        """Array methods (``t.sum()``, ``t.reshape(...)``) as the NumPy functions."""
        if name in ARRAY_METHODS or name in NONDIFF_METHODS:
            func = getattr(np, name, None) or ARRAY_METHODS[name][0]
            return lambda *args, **kwargs: func(self, *args, **kwargs)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def T(self):
        return np.transpose(self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from srcgrad.eager import ops

        if method != "__call__":
            return NotImplemented
        return ops.apply(ufunc, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from srcgrad.eager import ops

        return ops.apply(func, args, kwargs)

    # -- plain-value views (these do not carry a derivative) -------------------------
    def numpy(self):
        """The value as a NumPy array or scalar."""
        return self._read()

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self._read())
        return value.astype(dtype) if dtype is not None else value

    def __float__(self):
        return float(self._read())

    def __int__(self):
        return int(self._read())

    def __index__(self):
        return int(self._read())

    def __bool__(self):
        return bool(self._read())

    def __len__(self):
        return len(self._read())

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __format__(self, spec):
        return format(self._read(), spec)

    @property
    def shape(self):
        return np.shape(self._value)

    @property
    def dtype(self):
        return np.asarray(self._value).dtype

    @property
    def ndim(self):
        return np.ndim(self._value)

    def _read(self):
        return self._value


class Tensor(_Arithmetic, ConstantBase):
    """An immutable value that tapes can watch and record operations on (``sg.constant``
    makes one). Arithmetic and NumPy functions on Tensors and Variables give Tensors;
    ``.numpy()`` and ``np.asarray(t)`` give the value."""

    __slots__ = ("_value", "__weakref__")

    def __init__(self, value):
        self._value = _as_value(value)

    def __repr__(self):
        return f"<sg.Tensor: shape={self.shape}, dtype={self.dtype}, numpy={self._value!r}>"


def constant(value: object) -> Tensor:
    """A ``Tensor`` holding ``value`` (converted with ``np.asarray``; a Python float stays
    a scalar): what ``GradientTape.watch`` takes for an input that is not a Variable."""
    return Tensor(value)


class Variable(_Arithmetic, VariableBase):
    """``Variable(value, trainable=True, name=None)``: a mutable parameter.
    ``implicit_gradients`` and ``GradientTape`` find every trainable Variable a function
    reads and return its gradient. ``.value`` / ``.numpy()`` read it; ``.assign(v)``,
    ``.assign_add(d)``, ``.assign_sub(d)`` update it in place (same shape and dtype)."""

    __slots__ = ("_trainable", "name")

    def __init__(self, value, trainable=True, name=None):
        self._value = _copy(_initial_value(value))
        with _COUNTER_LOCK:
            self._uid = next(_COUNTER)
        self._trainable = bool(trainable)
        self.name = f"Variable:{self._uid}" if name is None else name

    def __repr__(self):
        return (f"<sg.Variable '{self.name}' shape={self.shape} dtype={self.dtype}, "
                f"numpy={self._value!r}>")

    def numpy(self):
        """A copy of the value (writing into it leaves the Variable as it was, as in TF)."""
        return _copy(self._read())

    def __array__(self, dtype=None, copy=None):
        value = np.array(self._read())   # (a copy, as ``numpy``)
        return value.astype(dtype, copy=False) if dtype is not None else value

    @property
    def trainable(self):
        """Fixed at creation, as in TensorFlow."""
        return self._trainable

    @property
    def value(self):
        """The current value (a read: tapes watching accessed Variables see it)."""
        return self._read()

    def _read(self):
        from srcgrad.eager import tape

        tape.variable_accessed(self)
        return self._value

    def assign(self, value):
        """Set the value: same shape, converted to the Variable's dtype (as in TF)."""
        self._value = _converted(self, _as_value(value))
        return self

    def assign_add(self, delta):
        """``self.assign(value + delta)``."""
        return self.assign(self._value + _as_value(delta))

    def assign_sub(self, delta):
        """``self.assign(value - delta)``."""
        return self.assign(self._value - _as_value(delta))


def _initial_value(value):
    """``value`` as a Variable's first value: a number or an array of numbers."""
    if value is None:
        raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except "
                         "when you are not providing a `variable_def`. You provided neither.")
    value = _as_value(value)
    kind = np.asarray(value).dtype.kind
    if kind == "O":
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    if kind not in "biufc":   # (TF also has string Variables; srcgrad differentiates numbers)
        raise TypeError(f"sg.Variable holds numbers or arrays of numbers (bool, int, float, "
                        f"complex); got {value!r} of dtype {np.asarray(value).dtype}")
    return value


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def _converted(variable, value):
    """``value`` as a new value of ``variable``: its shape and dtype are fixed at creation
    (a value that does not cast within its kind, such as a float into an int Variable,
    is a TypeError)."""
    old = variable._value
    if np.shape(value) != np.shape(old):
        raise ValueError(f"Cannot assign value of shape {np.shape(value)} to variable "
                         f"'{variable.name}' of shape {np.shape(old)}")
    dtype = np.result_type(old)
    if not np.can_cast(np.result_type(value), dtype, casting="same_kind"):
        raise TypeError(f"Cannot assign a value of dtype {np.result_type(value)} to variable "
                        f"'{variable.name}' of dtype {dtype}")
    converted = np.array(value, dtype=dtype)   # (a copy)
    return converted if isinstance(old, np.ndarray) else converted[()]
