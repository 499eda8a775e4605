"""Sparse Jacobians and Hessians: ``sg.jacobian(f, sparse=True)``,
``sg.hessian(f, sparse=True)``, ``sg.jacobian_sparsity(f)``, ``sg.hessian_sparsity(f)``.

Rows of a sparse Jacobian are the output's elements (an array flattened in C order; a
tuple output's items one after the other), its columns the ``wrt`` arguments' elements
(each flattened in C order, concatenated in ``wrt``'s order). Each call::

    pattern     srcgrad.sparse.pattern: which outputs depend on which inputs, found from
                the source ("global": for every input of these shapes; "local": at this point)
    colouring   srcgrad.sparse.compressed: columns or rows, a star colouring for a Hessian
    sweeps      srcgrad.sparse.sweeps: one batched forward sweep with a tangent column per
                colour (a jvp, vjp or hvp per colour where there is no batched form)
    decompress  a scipy.sparse.csr_array, each nonzero read from the compressed product

The pattern and colouring are kept per signature of the arguments (shapes and dtypes of
arrays, types of floats, values of ints, strings and the like) when the pattern is global;
a local pattern is found again at each call (its colouring is kept per pattern). One more
tangent column, a fixed random probe, checks every result: if the decompressed matrix
times the probe differs from the probe's own sweep, the pattern missed a nonzero at this
point; a kept pattern is then found again at this point (and from then on, for that
signature, at every call), and a fresh one that misses is an error, never a wrong matrix.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from srcgrad.api import functional as api
from srcgrad.api import sparse_sweeps as sweeps
from srcgrad.api.tracebacks import api_boundary
from srcgrad.api.typing import Function, Wrt
from srcgrad.codegen.pickling import derivative
from srcgrad.errors import SrcgradError
from srcgrad.sparse import compressed

_KEPT = 32        # signatures kept per function
_LOCAL = "local"  # what a signature whose pattern failed its probe keeps


class SparsityError(SrcgradError):
    """The sparsity pattern found for a function misses a nonzero of its derivative."""


@api_boundary
def jacobian_sparsity(f: Function, wrt: Wrt = api.FIRST, *,
                      argnums: int | Sequence[int] | None = None) -> Function:
    """A function with ``f``'s signature returning the sparsity pattern of ``f``'s
    Jacobian w.r.t. ``wrt``: a boolean ``scipy.sparse.csr_array``, rows the output's
    elements (C order; a tuple output's items concatenated), columns the ``wrt``
    arguments' elements (C order, concatenated). ``wrt``, ``argnums`` as for ``sg.grad``."""
    target = _Target(f, api.wrt_or_argnums(wrt, argnums), "sg.jacobian_sparsity")
    patterns = _Plans(target.jacobian_pattern, None, target.what)

    def jacobian_sparsity_fn(*args, **kwargs):
        target.inputs(args, kwargs)
        return patterns.plan(args, kwargs)[0].pattern.matrix.copy()

    return derivative(jacobian_sparsity_fn, "srcgrad.api.sparse.jacobian_sparsity", f,
                      wrt=wrt, argnums=argnums)


@api_boundary
def hessian_sparsity(f: Function, wrt: Wrt = api.FIRST, *,
                     argnums: int | Sequence[int] | None = None) -> Function:
    """A function with ``f``'s signature returning the sparsity pattern of the Hessian of
    ``f``'s scalar output w.r.t. ``wrt``: a symmetric boolean ``scipy.sparse.csr_array``
    over the ``wrt`` arguments' elements (C order, concatenated).
    ``wrt``, ``argnums`` as for ``sg.grad``."""
    target = _Target(f, api.wrt_or_argnums(wrt, argnums), "sg.hessian_sparsity")
    patterns = _Plans(target.hessian_pattern, None, target.what)

    def hessian_sparsity_fn(*args, **kwargs):
        target.inputs(args, kwargs)
        return patterns.plan(args, kwargs)[0].pattern.matrix.copy()

    return derivative(hessian_sparsity_fn, "srcgrad.api.sparse.hessian_sparsity", f,
                      wrt=wrt, argnums=argnums)


def sparse_jacobian(f, wrt):
    """``sg.jacobian(f, wrt, sparse=True)``'s function (``wrt`` resolved by the caller)."""
    target = _Target(f, wrt, "sg.jacobian(sparse=True)")
    plans = _Plans(target.jacobian_pattern, compressed.jacobian_compression,
                   target.what)

    def sparse_jacobian_fn(*args, **kwargs):
        inputs = target.inputs(args, kwargs)
        return plans.checked(args, kwargs, inputs, lambda plan: _jacobian(
            target, plan, args, kwargs, inputs))

    return sparse_jacobian_fn


def sparse_hessian(f, wrt):
    """``sg.hessian(f, wrt, sparse=True)``'s function (``wrt`` resolved by the caller)."""
    target = _Target(f, wrt, "sg.hessian(sparse=True)")
    plans = _Plans(target.hessian_pattern, compressed.hessian_compression, target.what)

    def sparse_hessian_fn(*args, **kwargs):
        inputs = target.inputs(args, kwargs)
        return plans.checked(args, kwargs, inputs, lambda plan: _hessian(
            target, plan, args, kwargs, inputs))

    return sparse_hessian_fn


class _Target:
    """The function, its ``wrt`` as parameter names, and what the pattern finder needs."""

    def __init__(self, f, wrt, what):
        self.f, self.what = f, what
        self.fn, self.bound = api._target(f)
        resolved = api.resolve_wrt(self.fn, wrt, self.bound)
        self.single = isinstance(resolved, str)
        self.wrt = resolved
        self.names = (resolved,) if self.single else tuple(resolved)
        params = api.parameter_names(self.fn, self.bound)
        self.positions = tuple(params.index(name) for name in self.names)

    def inputs(self, args, kwargs):
        return sweeps.wrt_inputs(self.names, self.positions, args, kwargs, self.what)

    @property
    def indices(self):
        """``wrt`` as positional indices, as the pattern finder takes it."""
        return self.positions[0] if self.single else self.positions

    def jacobian_pattern(self, args, kwargs):
        return _pattern_finder().jacobian_pattern(self.f, self.indices, args, kwargs)

    def hessian_pattern(self, args, kwargs):
        return _pattern_finder().hessian_pattern(self.f, self.indices, args, kwargs)


def _pattern_finder():
    """``srcgrad.sparse.pattern``: the dependency sweep generated from the source."""
    try:
        return importlib.import_module("srcgrad.sparse.pattern")
    except ModuleNotFoundError as error:
        if error.name != "srcgrad.sparse.pattern":
            raise
        raise SrcgradError("sparse Jacobians need srcgrad.sparse.pattern (the sparsity "
                           "pattern finder), which this installation lacks") from None


class _Plan:
    def __init__(self, pattern, compression):
        self.pattern, self.compression = pattern, compression
        self.columns_only = None   # for a complex output where rows were chosen


class _Plans:
    """Patterns and their compressions, kept per signature of the arguments (global
    patterns) and per pattern (local ones: found again at each call)."""

    def __init__(self, detect, compress, what):
        self.detect, self.compress, self.what = detect, compress, what
        self.by_signature = OrderedDict()   # signature -> _Plan, or _LOCAL
        self.by_pattern = OrderedDict()     # pattern -> Compression

    def plan(self, args, kwargs, fresh=False, complex_inputs=False):
        """``(plan, kept)``: ``kept`` when the plan was made for an earlier call."""
        key = _signature(args, kwargs)
        found = self.by_signature.get(key) if key is not None else None
        if isinstance(found, _Plan) and not fresh:
            self.by_signature.move_to_end(key)
            return found, True
        pattern = self.detect(args, kwargs)
        plan = _Plan(pattern, self._compression(pattern.matrix, complex_inputs))
        if key is not None and found is None and pattern.scope == "global":
            _keep(self.by_signature, key, plan)
        return plan, False

    def _compression(self, matrix, complex_inputs):
        if self.compress is None:
            return None
        digest = (matrix.shape, complex_inputs, matrix.indptr.tobytes(),
                  matrix.indices.tobytes())
        found = self.by_pattern.get(digest)
        if found is None:
            found = self.compress(matrix, ("columns",)) if complex_inputs \
                and self.compress is compressed.jacobian_compression else self.compress(matrix)
            _keep(self.by_pattern, digest, found)
        return found

    def checked(self, args, kwargs, inputs, evaluate):
        """``evaluate(plan)``'s matrix, its probe checked: a kept pattern that misses is
        found again at this point, a fresh one that misses raises ``SparsityError``."""
        plan, kept = self.plan(args, kwargs, complex_inputs=inputs.complex)
        matrix, wrong = evaluate(plan)
        if len(wrong) and kept:
            key = _signature(args, kwargs)
            self.by_signature[key] = _LOCAL   # from now on found at each call
            plan, _ = self.plan(args, kwargs, fresh=True, complex_inputs=inputs.complex)
            matrix, wrong = evaluate(plan)
        if len(wrong):
            raise SparsityError(
                f"{self.what}: the sparsity pattern found misses"
                f" a nonzero in row(s) {wrong[:10].tolist()} of the derivative at "
                f"this point ({plan.pattern.scope} pattern; {'; '.join(plan.pattern.reasons)})"
                "; please report it. sg.jacobian / sg.hessian without sparse=True give the "
                "dense matrix")
        return matrix


def _keep(table, key, value):
    table[key] = value
    while len(table) > _KEPT:
        table.popitem(last=False)


def _signature(args, kwargs):
    """What a kept pattern is keyed on, or None (an argument that cannot be keyed)."""
    try:
        key = tuple(_key(a) for a in args) + tuple((k, _key(v)) for k, v in
                                                   sorted(kwargs.items()))
        hash(key)
    except TypeError:
        return None
    return key


def _key(a):
    if isinstance(a, np.ndarray):
        return ("array", a.shape, a.dtype.str)
    if isinstance(a, (float, complex, np.floating, np.complexfloating)):
        return ("number", type(a))
    if type(a) in (tuple, list):
        return (type(a), tuple(_key(item) for item in a))
    return ("value", type(a), a)


def _jacobian(target, plan, args, kwargs, inputs):
    compression = plan.compression
    if compression.kind == "rows":
        flat, product = sweeps.reverse_rows(target.f, target.names, target.single, args,
                                            kwargs, compression.seeds(), inputs)
        if flat.dtype.kind == "c":   # a complex output: by columns
            if plan.columns_only is None:
                plan.columns_only = compressed.jacobian_compression(plan.pattern.matrix,
                                                                    ("columns",))
            compression = plan.columns_only
    if compression.kind == "columns":
        dtype = np.complex128 if inputs.complex else np.float64
        flat, product = sweeps.forward_columns(target.f, target.names, target.single, args,
                                               kwargs, inputs, compression.seeds(dtype),
                                               compression.shape[0])
    _check_shape(target, compression.shape, (flat.size, inputs.size))
    matrix = compression.decompress(product)
    wrong = compression.check_probe(matrix, product)
    dtypes = [x.dtype for x in inputs.arrays] + ([np.complex64] if flat.dtype.kind == "c"
                                                 else [])
    return _as_dtype(matrix, np.result_type(*dtypes)), wrong


def _hessian(target, plan, args, kwargs, inputs):
    compression = plan.compression
    _check_shape(target, compression.shape, (inputs.size, inputs.size))
    product = sweeps.hessian_columns(target.f, target.names, target.single, args, kwargs,
                                     inputs, compression.seeds())
    matrix = compression.decompress(product)
    wrong = compression.check_probe(matrix, product)
    return _as_dtype(matrix, np.result_type(*[x.dtype for x in inputs.arrays])), wrong


def _check_shape(target, pattern_shape, shape):
    if tuple(pattern_shape) != tuple(shape):
        raise SparsityError(f"{target.what}: the sparsity pattern is {pattern_shape[0]} x "
                            f"{pattern_shape[1]} but the derivative is {shape[0]} x "
                            f"{shape[1]}")


def _as_dtype(matrix, dtype):
    if matrix.dtype != dtype:
        matrix = sp.csr_array((matrix.data.astype(dtype), matrix.indices, matrix.indptr),
                              shape=matrix.shape)
    return matrix
