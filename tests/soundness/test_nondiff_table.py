"""The non-differentiable table holds only functions whose outputs are locally constant
in their float inputs: every row is walked with a use that would carry a value if the
function did, and central differences (an oracle independent of srcgrad) must give 0.
Functions that carry values have rules checked against the same oracle, or are refused."""

import builtins
import math
from typing import NamedTuple

import array_api_compat
import numpy as np
import pytest

import srcgrad as sg
from srcgrad import runtime as rt
from srcgrad.rules import REGISTRY, load_optional_rows
from srcgrad.rules.methods import NONDIFF_METHODS
from tests.conftest import numeric_grad

X = np.array([.3, .7, 1.1])


class _Pair(NamedTuple):
    a: np.ndarray
    b: np.ndarray


load_optional_rows()   # walk SciPy's rows too
# Rows exempt from the oracle: a constant by declaration, or an output that is not a number.
EXEMPT = {
    rt.stop_gradient: "the user's explicit request for no derivative",
    rt.read_constant: "the value of an sg.constant: a constant by declaration",
    rt.constant_value: "sg.constant(v) in differentiated code: a constant by declaration",
    rt.check_array_types: "returns None (a guard)",
    rt.check_wrt: "returns None (a guard)",
    rt.check_array_attribute: "returns None (a guard)",
    rt.require_list_or_dict: "returns None or raises (a guard)",
    rt.truncates: "whether a dtype is an integer or boolean one (no value in it)",
    rt.escaped: "returns None (counts escapes: see analysis.escapes)",
    rt.escape_count: "an integer count of escapes",
    rt.refuse_if_escaped: "returns None or raises (a guard)",
    rt.refuse_read_back: "raises (a guard)",
    rt.without_derivative: "returns a value holding no float, or raises (a guard)",
    rt.refuse_changed_defaults: "raises (a guard)",
    rt.refuse_property_tangent: "returns None or raises (a guard)",
    rt.missing_transpose: "raises (a reverse template srcgrad does not have)",
    rt.regenerated: "returns a generated function (a guard's hand-over), not a number",
    rt.checked_namespace: "returns the namespace it is given (a module), or raises",
    rt.transposes: "whether a solve's trans flag transposes (a flag, not a number)",
    rt.conjugates: "whether a solve's trans flag conjugates (a flag, not a number)",
    rt.adjoint_trans: "the trans flag of the transposed solve (a flag, not a number)",
    rt.swapped: "a band's widths swapped (integers)",
    rt.norm_matrix_axes: "the pair of axes a matrix norm reduces (integers from its axis=)",
    rt.singular_pick: "a slice of the singular vectors chosen by a norm's ord",
    array_api_compat.array_namespace: "returns a namespace (a module), not a number",
    array_api_compat.device: "returns a device (where an array lives), not a number",
    **{getattr(array_api_compat, name): "whether a value is some kind of array or namespace"
       for name in dir(array_api_compat)
       if name.startswith("is_") and name not in ("is_lazy_array", "is_writeable_array")},
    builtins.print: "returns None",
    builtins.str: "text (as an f-string) carries no derivative",
    builtins.repr: "text (as an f-string) carries no derivative",
}


def _total(value):
    """A float summarizing ``value`` (numbers, arrays, tuples, lists, shapes)."""
    if isinstance(value, (tuple, list)):
        return float(sum(_total(v) for v in value)) if value else 0.0
    return float(np.sum(np.asarray(value, dtype=float)))


# Each row applied to values derived from x, as a float-valued function of x.
USES = {
    builtins.len: lambda x: len(x * 2.0) * 1.0,
    rt.deleted_positions: lambda x: _total(rt.deleted_positions(list(x * 2.0), 0, 2, 1)),
    array_api_compat.size: lambda x: float(array_api_compat.size(x * 2.0)),
    array_api_compat.is_lazy_array: lambda x: float(array_api_compat.is_lazy_array(x * 2.0)),
    array_api_compat.is_writeable_array:
        lambda x: float(array_api_compat.is_writeable_array(x * 2.0)),
    rt.reduced_count: lambda x: float(rt.reduced_count(x * 2.0, 0)),
    rt.interp_index: lambda x: _total(rt.interp_index(x * 2.0, np.array([0.0, 1.0, 2.0]))),
    rt.interp_inside: lambda x: _total(rt.interp_inside(x * 2.0, np.array([-1.0, 0.5, 2.0]))),
    rt.interp_outside: lambda x: _total(rt.interp_outside(x * 2.0, np.array([0.0, 1.0, 2.0]),
                                                          None, -1)),
    builtins.range: lambda x: _total(list(range(int(x[2] * 7)))),
    builtins.int: lambda x: float(int(x[1] * 7)),
    builtins.bool: lambda x: float(bool(x[0] - 0.3)),
    builtins.round: lambda x: round(x[1] * 7) + round(x[2], 1),
    builtins.isinstance: lambda x: float(isinstance(x[0] * 2.0, float)),
    builtins.type: lambda x: float(type(x[0] * 1.0) is np.float64),
    builtins.id: lambda x: float(id(x) == id(x)),
    builtins.callable: lambda x: float(callable(x[0])),
    math.floor: lambda x: math.floor(x[1] * 7.0) * 1.0,
    math.ceil: lambda x: math.ceil(x[1] * 7.0) * 1.0,
    math.trunc: lambda x: math.trunc(x[2] * 7.0) * 1.0,
    math.isnan: lambda x: float(math.isnan(x[0])),
    math.isinf: lambda x: float(math.isinf(x[0])),
    math.isfinite: lambda x: float(math.isfinite(x[0])),
    np.floor: lambda x: _total(np.floor(x * 7.0)),
    np.ceil: lambda x: _total(np.ceil(x * 7.0)),
    np.round: lambda x: _total(np.round(x * 7.0)) + _total(np.round(x, 3)),
    np.rint: lambda x: _total(np.rint(x * 7.0)),
    np.trunc: lambda x: _total(np.trunc(x * 7.0)),
    np.fix: lambda x: _total(np.fix(x * 7.0)),
    np.sign: lambda x: _total(np.sign(x - 0.5)),
    np.floor_divide: lambda x: _total(np.floor_divide(x * 7.0, x[1] - 0.3)),
    np.argmax: lambda x: float(np.argmax(x)),
    np.argmin: lambda x: float(np.argmin(x)),
    np.argsort: lambda x: _total(np.argsort(x) * np.arange(3)),
    np.argwhere: lambda x: _total(np.argwhere(x > 0.5)),
    np.nonzero: lambda x: _total(np.nonzero(x > 0.5)),
    np.flatnonzero: lambda x: _total(np.flatnonzero(x > 0.5)),
    np.shape: lambda x: _total(np.shape(x)),
    np.ndim: lambda x: float(np.ndim(x)),
    np.size: lambda x: float(np.size(x)),
    np.zeros: lambda x: _total(np.zeros(int(x[2] * 3))) + float(np.zeros(3).size),
    np.ones: lambda x: _total(np.ones(int(x[2] * 3))),
    np.empty: lambda x: float(np.empty(int(x[2] * 3)).size),
    np.eye: lambda x: _total(np.eye(int(x[2] * 3))),
    np.identity: lambda x: _total(np.identity(int(x[2] * 3))),
    np.zeros_like: lambda x: _total(np.zeros_like(x)),
    np.ones_like: lambda x: _total(np.ones_like(x)),
    np.empty_like: lambda x: float(np.empty_like(x).size),
    np.isnan: lambda x: _total(np.isnan(x)),
    np.isinf: lambda x: _total(np.isinf(x)),
    np.isfinite: lambda x: _total(np.isfinite(x)),
    np.isclose: lambda x: _total(np.isclose(x, 0.7)),
    np.allclose: lambda x: float(np.allclose(x, X)),
    np.array_equal: lambda x: float(np.array_equal(x, X)),
    np.equal: lambda x: _total(np.equal(x, 0.7)),
    np.not_equal: lambda x: _total(np.not_equal(x, 0.7)),
    np.less: lambda x: _total(np.less(x, 0.5)),
    np.less_equal: lambda x: _total(np.less_equal(x, 0.5)),
    np.greater: lambda x: _total(np.greater(x, 0.5)),
    np.greater_equal: lambda x: _total(np.greater_equal(x, 0.5)),
    np.logical_and: lambda x: _total(np.logical_and(x, x - 0.3)),
    np.logical_or: lambda x: _total(np.logical_or(x, x - 0.3)),
    np.logical_not: lambda x: _total(np.logical_not(x - 0.3)),
    np.logical_xor: lambda x: _total(np.logical_xor(x, x - 0.3)),
    np.any: lambda x: float(np.any(x - 0.3)),
    np.all: lambda x: float(np.all(x - 0.3)),
    np.count_nonzero: lambda x: float(np.count_nonzero(x - 0.3)),
    np.searchsorted: lambda x: _total(np.searchsorted(x, [0.5, 1.0])),
    np.digitize: lambda x: _total(np.digitize(x, [0.5, 1.0])),
    np.tril_indices: lambda x: _total(np.tril_indices(int(x[2] * 3))),
    np.triu_indices: lambda x: _total(np.triu_indices(int(x[2] * 3))),
    np.diag_indices: lambda x: _total(np.diag_indices(int(x[2] * 3))),
    np.indices: lambda x: _total(np.indices((int(x[2] * 3), 2))),
    np.result_type: lambda x: float(np.result_type(x, 1.0) == np.float64),
    np.iscomplexobj: lambda x: float(np.iscomplexobj(x)),
    np.isscalar: lambda x: float(np.isscalar(x[0])),
    np.broadcast_shapes: lambda x: _total(np.broadcast_shapes(np.shape(x), (1,))),
    np.argpartition: lambda x: _total(np.argpartition(x, 1) * np.arange(3)),
    np.lexsort: lambda x: _total(np.lexsort((x, -x)) * np.arange(3)),
    np.signbit: lambda x: _total(np.signbit(x - 0.5)),
    np.isreal: lambda x: _total(np.isreal(x)),
    np.iscomplex: lambda x: _total(np.iscomplex(x)),
    np.isrealobj: lambda x: float(np.isrealobj(x)),
    np.ravel_multi_index: lambda x: float(np.ravel_multi_index((int(x[1] * 3), 1), (3, 3))),
    np.unravel_index: lambda x: _total(np.unravel_index(int(x[2] * 5), (3, 3))),
    np.array_equiv: lambda x: float(np.array_equiv(x, X)),
    np.isin: lambda x: _total(np.isin(x, X)),
    np.spacing: lambda x: _total(np.spacing(x)),
    np.linalg.matrix_rank: lambda x: float(np.linalg.matrix_rank(np.outer(x, x))),
    rt.zeros_like: lambda x: _total(rt.zeros_like(x)),
    rt.batch_size: lambda x: float(rt.batch_size(np.outer(x, x))),
    rt.batch_index: lambda x: float(rt.batch_index(int(x[1] * 3)))
    + float(len(rt.batch_index((Ellipsis, int(x[0] * 3))))),
    rt.batch_zeros: lambda x: _total(rt.batch_zeros(x * 2.0, 3)),
    rt.batch_rows: lambda x: float(rt.batch_rows(np.outer(x, x))),
    rt.batch_zeros_like: lambda x: _total(rt.batch_zeros_like(x * 2.0, 3)),
    rt.batch_slots_like: lambda x: _total(rt.batch_slots_like(x * 2.0, 2)),
    rt.batch_wrt_zeros: lambda x: _total(rt.batch_wrt_zeros(x * 2.0, "x", 2)),
    rt.wrt_zeros: lambda x: _total(rt.wrt_zeros(x, "x")),
    rt.slots_like: lambda x: _total(rt.slots_like(x)),
    rt.seed: lambda x: float(rt.seed(np.sum(x))),
    rt.dense_basis: lambda x: _total(rt.dense_basis(x * 2.0, "sg.jacobian")),
    rt.dense_shape: lambda x: _total(rt.dense_shape(x * 2.0, "sg.jacobian")),
    rt.ones_seed: lambda x: _total(rt.ones_seed((x * 2.0, np.sum(x)))),
    rt.sign: lambda x: _total(rt.sign(x - 0.5)),
    rt.balanced_eq: lambda x: _total(rt.balanced_eq(x, np.maximum(x, 0.5), 0.5)),
    rt.clip_mask: lambda x: _total(rt.clip_mask(x, 0.5, 1.0)),
    rt.clip_bound_partial: lambda x: _total(rt.clip_bound_partial(x, 0.5, 1.0, None, None, False))
    + _total(rt.clip_bound_partial(x, 0.5, 1.0, None, None, True)),
    rt.inverse_axes: lambda x: _total(rt.inverse_axes((1, 0), int(x[2] * 2))),
    rt.zeros_like_structure: lambda x: _total(rt.zeros_like_structure([x, x])),
    rt.all_scalars: lambda x: float(rt.all_scalars(x[0], x[1])),
    rt.zip_length: lambda x: float(rt.zip_length(x * 2.0, [x[0], x[1]])),
    rt.require_dict: lambda x: float(rt.require_dict({"a": x * 2.0}, "update") is None),
    rt.require_list: lambda x: float(rt.require_list([x * 2.0], "del xs[i]") is None),
    rt.insert_position: lambda x: float(rt.insert_position([x, x * 2.0, x], -1)),
    rt.call_method: lambda x: float(rt.call_method(x * 2.0, "argmax")),   # constant names only
    rt.sorted_order: lambda x: _total(rt.sorted_order(list(x[::-1] * 2.0), key=abs)),
    rt.updates_in_place: lambda x: float(rt.updates_in_place(x * 2.0)),
    rt.check_unshared: lambda x: float(rt.check_unshared(x * 2.0, x[0]) is None),
    rt.is_view_of: lambda x: float(rt.is_view_of((x * 2.0)[1:], x)),
    rt.lone_slot: lambda x: float(rt.lone_slot(True, x * 2.0)),
    rt.is_duck_array: lambda x: float(rt.is_duck_array(x * 2.0)),
    rt.is_own_method: lambda x: float(rt.is_own_method(x * 2.0, "ravel")),
    rt.variable_cotangent: lambda x: float(rt.variable_cotangent(x * 2.0, x * 3.0) is None),
    rt.field_tangent_object_cotangent:
        lambda x: float(len(rt.field_tangent_object_cotangent(_Pair(x * 2.0, x), "a"))),
    rt.mvn_dimension: lambda x: float(rt.mvn_dimension(x * 2.0, np.diag(x))),
    rt.floats_apply: lambda x: float(rt.floats_apply(np.float64(x[0] * 2.0))),
    rt.bessel_weights: lambda x: _total(np.stack(np.broadcast_arrays(
        *rt.bessel_weights("ive", x - 0.5)))),
    rt.uplo_of: lambda x: float(rt.uplo_of(x[0] * 2.0 > 0.5) == "U"),
    rt.power_at_zero: lambda x: _total(rt.power_at_zero(x - x[0], x * 0.0)),
    # einsum's specs: subscripts, shapes and kinds (a shape read as the number)
    rt.einsum_spec: lambda x: float(rt.einsum_spec(1, "i,i->", x * 2.0, x)[0][1][0]),
    rt.einsum_swap: lambda x: float(rt.einsum_swap(rt.einsum_spec(1, "i,i->", x * 2.0, x),
                                                   2)[0][1][0]),
    # the norm's gradient formula and the piecewise-constant weights of |x| in it
    rt.norm_kind: lambda x: float(rt.norm_kind(x * 2.0, 3, None) == "power"),
    rt.norm_weights: lambda x: _total(rt.norm_weights(x * 2.0, np.max(np.abs(x * 2.0)),
                                                      np.inf, None, False)),
}
# NumPy's integer and boolean scalar types called as casts (np.int64(x)): they truncate.
for _func in REGISTRY.nondiff_functions():
    if isinstance(_func, type) and issubclass(_func, (np.integer, np.bool_)):
        USES[_func] = lambda x, cast=_func: float(cast(x[1] * 7.0))
try:
    import scipy.special

    USES[scipy.special.gammasgn] = lambda x: _total(scipy.special.gammasgn(x - 1.5))
except ImportError:
    pass
METHOD_USES = {
    "argmax": lambda x: float(x.argmax()),
    "argmin": lambda x: float(x.argmin()),
    "argsort": lambda x: _total(x.argsort() * np.arange(3)),
    "nonzero": lambda x: _total((x - 0.3).nonzero()),
    "any": lambda x: float((x - 0.3).any()),
    "all": lambda x: float((x - 0.3).all()),
    "__len__": lambda x: float((x * 2.0).__len__()),
    "count": lambda x: float(list(x * 2.0).count(x[1] * 2.0)),
    "index": lambda x: float(list(x * 2.0).index(x[1] * 2.0)),
    "keys": lambda x: float(len({"a": x[0]}.keys())),
}
ROWS = REGISTRY.nondiff_functions()


def test_every_row_has_a_use():
    missing = [name for func, name in ROWS.items()
               if func not in USES and func not in EXEMPT]
    assert not missing, f"rows without a value-carrying use in this test: {missing}"
    assert set(METHOD_USES) == set(NONDIFF_METHODS)


@pytest.mark.parametrize("func", list(USES), ids=lambda f: ROWS.get(f, repr(f)))
def test_row_is_locally_constant(func):
    assert func in ROWS, "a use for a function no longer in the table"
    use = USES[func]
    assert np.all(numeric_grad(use, [X], 0) == 0.0)


@pytest.mark.parametrize("method", sorted(METHOD_USES))
def test_method_is_locally_constant(method):
    assert np.all(numeric_grad(METHOD_USES[method], [X], 0) == 0.0)


def test_exempt_rows():
    assert rt.stop_gradient(X) is X
    assert type(rt.read_constant(sg.constant(X))) is np.ndarray
    assert rt.constant_value(X) is X and rt.constant_value(sg.constant(X)) is X
    assert rt.check_array_types(X, 1.0) is None
    assert rt.require_list_or_dict([X], "del xs[0]") is None
    assert isinstance(str(X), str) and isinstance(repr(X), str)
