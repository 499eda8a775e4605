"""Every corpus program, for every differentiable argument, against finite differences.

Each case is checked two ways: a directional check (<grad, v> against the central
difference of f along a random v) and an elementwise central difference per input
entry. ``value_and_grad`` must return f's own value, and a tuple ``wrt`` must agree with
the single-argument gradients. Array-valued programs are checked through ``vjp``:
<u, J v> (J v by central differences) against <J^T u, v>.
"""

import copy
import math
import types

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import directional_check, numeric_grad
from tests.corpus import (
    arithmetic,
    arrays,
    calls,
    classes,
    containers,
    control,
    language,
    methods,
    models,
    structures,
    vector_valued,
)
from tests.corpus.trees import assert_same_structure, cast_arrays, flatten, flatten_like, unflatten

RTOL, ATOL = 1e-5, 1e-6

VEC3 = np.array([0.7, -1.3, 0.4])
VEC4 = np.array([0.3, 1.2, -0.8, 0.5])
POS3 = np.array([0.6, 1.4, 0.9])
MAT23 = np.array([[0.2, -0.7, 1.1], [0.9, 0.4, -0.3]])
MAT22 = np.array([[0.5, -0.4], [0.3, 0.8]])
MAT33 = np.array([[1.0, 0.2, -0.3], [0.1, 0.7, 0.4], [-0.2, 0.5, 1.3]])


# A user function called inside a loop: its residuals (`square_saved`) are overwritten
# by each iteration and not saved, so every backward step sees the last call's.

class Case:
    def __init__(self, fn, *args, wrt=None, id=None, xfail=None, xfail_wrt=None,
                 rejected=False):
        self.fn, self.args = fn, args
        self.xfail = xfail  # why the gradient is known to be wrong
        self.xfail_wrt = xfail_wrt  # the arguments whose gradient is (default: all)
        self.rejected = rejected  # srcgrad raises instead: value_and_grad fails too
        self.wrt = wrt if wrt is not None else tuple(
            i for i, a in enumerate(args) if not isinstance(a, (int, np.integer)))
        self.id = id or getattr(fn, "__name__", type(fn).__name__)

    def fresh_args(self):
        return copy.deepcopy(list(self.args))

    def along(self, index):
        """(f of one flat vector of ``args[index]``'s float leaves, that vector)."""
        primal = self.args[index]

        def f(vector):
            args = self.fresh_args()
            args[index] = unflatten(primal, vector)
            return self.fn(*args)

        return f, flatten(primal)


SCALAR_CASES = [
    # arithmetic
    Case(arithmetic.polynomial, 0.8),
    Case(arithmetic.rational, 1.7, 0.6),
    Case(arithmetic.negate_twice, 1.3),
    Case(arithmetic.power_of_variable, 1.4, 2.3),
    Case(arithmetic.elementwise_chain, VEC3),
    Case(arithmetic.softplus_sum, VEC4),
    Case(arithmetic.mixed_scalar_array, 0.9, VEC3),
    Case(arithmetic.reused_value, 0.6),
    Case(arithmetic.reassigned, 0.3),
    Case(arithmetic.augmented_ops, 0.9, 1.6),
    Case(arithmetic.comparison_guard, 1.2, id="comparison_guard_taken"),
    Case(arithmetic.comparison_guard, 3.5, id="comparison_guard_not_taken"),
    Case(arithmetic.chained_comparison, 2.0, 0.5),
    Case(arithmetic.ternary, 1.5, id="ternary_positive"),
    Case(arithmetic.ternary, -1.5, id="ternary_negative"),
    Case(arithmetic.integer_count, VEC4),
    Case(arithmetic.boolean_mask, VEC4),
    Case(arithmetic.integer_exponent, VEC3),
    Case(arithmetic.floor_division_index, VEC4),
    Case(arithmetic.math_functions, 0.7),
    Case(arithmetic.math_more, 1.1, 0.8),
    Case(arithmetic.math_constants, 1.9),
    Case(arithmetic.builtin_abs_max, 0.4, 1.1),
    Case(arithmetic.float_conversion, 1.25),
    Case(arithmetic.modulo, 2.2),
    # control flow
    Case(control.piecewise, -2.0, id="piecewise_left"),
    Case(control.piecewise, 0.4, id="piecewise_middle"),
    Case(control.piecewise, 1.8, id="piecewise_right"),
    Case(control.branch_on_data, VEC3, POS3, id="branch_on_data_then"),
    Case(control.branch_on_data, -VEC3, POS3, id="branch_on_data_else"),
    Case(control.branch_without_else, 0.7),
    Case(control.nested_branches, 0.5, -0.9),
    Case(control.nested_branches, -0.5, 0.9, id="nested_branches_outer_else"),
    Case(control.range_loop, 0.9),
    Case(control.range_loop_with_start_step, 0.6),
    Case(control.loop_over_array, VEC4),
    Case(control.loop_over_list, 0.3, -0.8),
    Case(control.loop_over_rows, MAT23),
    Case(control.recurrence, 0.8, 0.5),
    Case(control.nested_loops, VEC3),
    Case(control.while_halving, 13.0),
    Case(control.while_newton_sqrt, 2.0),
    Case(control.while_with_counter, 0.6),
    Case(control.loop_break, 0.35),
    Case(control.loop_continue, np.linspace(0.5, 1.5, 6)),
    Case(control.early_return_in_loop, np.array([0.4, 0.9, 0.6, 0.3]), id="early_return_taken"),
    Case(control.early_return_in_loop, np.array([0.1, 0.2, 0.3]), id="early_return_not_taken"),
    Case(control.early_return_in_branch, 2.5, id="early_return_first"),
    Case(control.early_return_in_branch, 0.5, id="early_return_second"),
    Case(control.early_return_in_branch, 1.2, id="early_return_fallthrough"),
    Case(control.while_break, 0.7),
    Case(control.loop_else, 1.3, id="loop_else_runs"),
    Case(control.loop_else, 4.0, id="loop_else_skipped"),
    Case(control.loop_overwrites_array, VEC3),
    # calls, globals, closures
    Case(calls.sum_of_squares, VEC3),
    Case(calls.uses_defaults, 0.7),
    Case(calls.keyword_call, 0.7, 1.9),
    Case(calls.helper_chain, 0.6),
    Case(calls.recursive_power, 1.3),
    Case(calls.power, 1.3, 3),
    Case(calls.reads_global, VEC3),
    Case(calls.calls_global_reader, VEC3),
    Case(calls.scaled_by_three, VEC3, id="closure_cells"),
    Case(calls.logistic_loss, np.array([0.3, -0.2]), np.array([[1.0, 0.5], [-0.4, 1.2],
                                                              [0.8, -0.9]]),
         np.array([1.0, 0.0, 1.0]), wrt=(0, 1)),
    Case(calls.two_layer, MAT22, np.array([[0.4, -0.6]]), np.array([0.9, -0.2]),
         wrt=(0, 1, 2)),
    Case(calls.helper_in_loop, 0.4),
    Case(calls.helper_in_branch, 0.8, id="helper_in_branch_then"),
    Case(calls.helper_in_branch, -0.8, id="helper_in_branch_else"),
    # containers, subscripts
    Case(containers.tuple_unpack, 0.5, 1.5),
    Case(containers.swap, 0.5, 1.5),
    Case(containers.uses_pair, 0.9),
    Case(containers.list_building, 0.9),
    Case(containers.tuple_index, 0.9),
    Case(containers.array_index, VEC4),
    Case(containers.matrix_index, MAT22),
    Case(containers.slice_read, VEC4),
    Case(containers.row_and_column, MAT33),
    Case(containers.item_write, VEC3),
    Case(containers.slice_add, VEC4),
    Case(containers.write_in_loop, VEC4),
    Case(containers.cumulative_write, VEC4),
    Case(containers.overwrite_input_item, VEC3),
    Case(containers.fancy_index, VEC3),
    Case(containers.boolean_index, VEC4),
    Case(containers.stack_parts, VEC3, POS3),
    Case(containers.concatenate_parts, VEC3),
    Case(containers.tuple_of_outputs, POS3),
    # numpy arrays
    Case(arrays.sum_axis, MAT23),
    Case(arrays.mean_keepdims, MAT23),
    Case(arrays.max_reduction, MAT23),
    Case(arrays.prod_reduction, VEC4),
    Case(arrays.method_reductions, MAT23),
    Case(arrays.dot_vector, VEC3, POS3),
    Case(arrays.matmul_operator, MAT23, MAT33),
    Case(arrays.matvec, MAT23, VEC3),
    Case(arrays.quadratic_form, MAT33, VEC3),
    Case(arrays.broadcasting_row, MAT23, VEC3),
    Case(arrays.broadcasting_column, MAT23, np.array([0.5, -1.5])),
    Case(arrays.softmax_cross_entropy, VEC4),
    Case(arrays.layer_norm, VEC4),
    Case(arrays.reshape_transpose, VEC4),
    Case(arrays.mlp, np.array([[0.3, -0.5], [0.8, 0.1], [-0.2, 0.6]]), np.array([0.1, -0.2]),
         np.array([0.7, -0.4]), VEC3, wrt=(0, 1, 2, 3)),
    Case(arrays.cumulative, VEC4),
    Case(arrays.norm, VEC3),
    Case(arrays.outer_product, VEC3, np.array([0.4, -0.9])),
    Case(arrays.clip_and_maximum, np.array([-0.9, -0.2, 0.35, 0.8])),
]

# Lambdas passed straight to the API, several of them on one line.
square_lambda, cube_lambda = (lambda x: x * x), (lambda x: x ** 3 + np.sin(x))
weighted = lambda x, w: np.sum(w * np.exp(x))

SCALAR_CASES += [
    Case(square_lambda, 1.7, id="lambda_square"),
    Case(cube_lambda, 0.6, id="lambda_cube_same_line"),
    Case(weighted, VEC3, POS3, id="lambda_two_args"),
    Case(lambda x: np.sum(np.tanh(x) ** 2), VEC3, id="lambda_inline"),
]

RNG = np.random.default_rng(2024)
X43 = np.array([[0.5, -1.2, 0.3], [1.1, 0.4, -0.7], [-0.6, 0.9, 1.4], [0.2, -0.3, -1.0]])
Y4 = np.array([1.0, 0.0, 1.0, 1.0])
SIGNS4 = np.array([1.0, -1.0, 1.0, -1.0])
VEC6 = np.array([0.4, -0.9, 1.3, 0.2, -0.5, 0.8])
SEQ = np.array([[0.5, -0.3], [0.1, 0.8], [-0.7, 0.4]])

SCALAR_CASES += [
    # well-known models
    Case(models.logistic_regression, np.array([0.4, -0.3, 0.2]), X43, Y4),
    Case(models.logistic_regression_l2, np.array([0.4, -0.3, 0.2]), 0.1, X43, SIGNS4),
    Case(models.softmax_regression, 0.3 * RNG.standard_normal((3, 4)), X43,
         np.array([0, 3, 1, 2]), wrt=(0, 1)),
    Case(models.mlp_dict_params, {"W1": 0.5 * RNG.standard_normal((3, 4)),
                                  "b1": np.array([0.1, -0.2, 0.05, 0.3]),
                                  "W2": 0.5 * RNG.standard_normal((4, 1)),
                                  "b2": np.array([0.2])}, X43, Y4),
    Case(models.rnn_loss, models.init_rnn(2, 3), SEQ, np.array([0.3, -0.4, 0.8])),
    Case(models.rnn_hidden_states, 0.5 * RNG.standard_normal((3, 2)),
         0.5 * RNG.standard_normal((3, 3)), SEQ),
    Case(models.lstm_sequence_loss, 0.4 * RNG.standard_normal((8, 2)),
         0.4 * RNG.standard_normal((8, 2)), 0.1 * RNG.standard_normal(8), SEQ),
    Case(models.bilinear_layer, VEC3, np.array([0.6, -0.4]), 0.5 * RNG.standard_normal((2, 3, 2)),
         np.array([0.1, -0.3])),
    Case(models.bilinear_batched, SEQ, SEQ[::-1].copy(), 0.5 * RNG.standard_normal((3, 2, 2))),
    Case(models.gmm_log_likelihood, np.array([0.2, -0.5, 0.1]), np.array([-1.0, 0.3, 1.5]),
         np.array([-0.2, 0.1, -0.4]), np.array([-1.3, 0.2, 0.9, 1.7, -0.4])),
    Case(models.rosenbrock, np.array([0.9, 1.2, 0.8, 1.05])),
    Case(models.gp_negative_log_marginal_likelihood, -0.2, 0.3, -1.5,
         np.array([[0.1, 0.5], [0.7, -0.3], [-0.4, 0.9], [1.1, 0.2]]),
         np.array([0.5, -0.2, 0.9, 0.1])),
    Case(models.gaussian_nll, 0.3, -0.4, VEC4),
    Case(models.linear_regression_ridge, np.array([0.4, -0.3, 0.2]), X43, Y4),
    Case(models.huber_loss, np.array([0.3, 2.2, -1.7, 0.9]), np.array([0.1, 0.4, 0.2, 1.1])),
    Case(models.poisson_regression, np.array([0.2, -0.1, 0.3]), X43,
         np.array([1.0, 0.0, 3.0, 2.0])),
    Case(models.scaled_dot_product_attention, SEQ, SEQ[[1, 2, 0]],
         0.5 * RNG.standard_normal((3, 2))),
    Case(models.batch_norm, X43, np.array([1.2, 0.8, -0.5]), np.array([0.1, 0.0, -0.2])),
    Case(models.conv1d_valid, VEC6, np.array([0.5, -0.3, 0.8])),
    Case(models.vae_elbo, np.array([0.3, -0.2]), np.array([-0.5, 0.2]),
         0.5 * RNG.standard_normal((3, 2)), VEC3, np.array([0.4, -1.1])),
    Case(models.network_loss, models.NeuralNet([3, 4, 1]), X43, Y4),
    Case(models.Regressor(X43, Y4), np.array([0.4, -0.3, 0.2]), 0.15, id="regressor_call"),
    # classes
    Case(classes.Polynomial([0.5, -1.0, 0.3, 0.2]).squared_error, 1.3, 0.4,
         id="method_polynomial"),
    Case(classes.Dense(MAT23, np.array([0.1, -0.2])).loss, VEC3, np.array([0.3, -0.5]),
         id="method_dense_loss"),
    Case(classes.Dense(MAT23, np.array([0.1, -0.2])).loss_of_weights, MAT23, VEC3,
         id="method_weights_argument"),
    Case(classes.Quadratic(MAT33 @ MAT33.T, VEC3), POS3, id="callable_quadratic"),
    Case(classes.Scaled(), VEC3, POS3, id="callable_class_attribute"),
    Case(classes.stacked_layers, classes.Stack([classes.Dense(MAT33, VEC3),
                                                classes.Dense(MAT23, np.array([0.2, 0.1]))]),
         POS3),
    Case(classes.attribute_params, types.SimpleNamespace(slope=0.8, intercept=-0.3), VEC3),
    Case(classes.dataclass_loss, classes.LinearParams(np.array([0.4, -0.3, 0.2]), 0.1), X43, Y4),
    Case(classes.dataclass_nll, classes.GaussianParams(np.array([0.2, -0.1]),
                                                       np.array([0.3, -0.2])), SEQ),
    Case(classes.namedtuple_loss, classes.Affine(MAT23, np.array([0.1, -0.2])), VEC3),
    Case(classes.namedtuple_unpacked, classes.Affine(MAT23, np.array([0.1, -0.2])), VEC3),
    Case(classes.list_of_namedtuples, [classes.Affine(MAT33, VEC3),
                                       classes.Affine(MAT23, np.array([0.2, 0.1]))], POS3),
    Case(classes.object_method_call, 0.7),
    # containers as arguments and working state
    Case(structures.tuple_argument, (VEC3, POS3)),
    Case(structures.list_argument, [VEC3, MAT22, 0.4]),
    Case(structures.dict_argument, {"w": VEC3, "scale": 1.5, "shift": 0.2}),
    Case(structures.nested_structure, {"layers": [MAT23, MAT22], "x": VEC3,
                                       "extra": (0.5, 1.5)}),
    Case(structures.dict_of_lists, {"weights": [MAT33, MAT23],
                                    "biases": [VEC3, np.array([0.1, 0.2])]}, POS3),
    Case(structures.unused_dict_entry, {"used": VEC3, "unused": MAT22}, POS3),
    Case(structures.append_in_loop, VEC4),
    Case(structures.extend_list, VEC3, POS3),
    Case(structures.append_arrays_then_stack, VEC3),
    Case(structures.dict_writes_in_loop, VEC4),
    Case(structures.dict_accumulate, VEC4),
    Case(structures.dict_items_loop, {"weights": MAT22, "bias": VEC3}),
    Case(structures.dict_values_sum, {"a": VEC3, "b": 0.7}),
    Case(structures.list_item_overwrite, VEC3),
    Case(structures.tuple_result_unpacked, VEC4),
    Case(structures.list_pop_and_index, VEC3),
    # language
    Case(language.list_comprehension, VEC4),
    Case(language.generator_in_sum, VEC4),
    Case(language.comprehension_with_condition, VEC4, 1.5),
    Case(language.dict_comprehension, VEC3),
    Case(language.nested_comprehension, MAT33),
    Case(language.comprehension_over_zip, VEC3, POS3),
    Case(language.enumerate_loop, POS3),
    Case(language.reversed_and_zip, VEC3, POS3),
    Case(language.lambda_local, VEC3),
    Case(language.lambda_captures_argument, VEC3, 1.3),
    Case(language.nested_def_closure, VEC3, 0.6),
    Case(language.closure_over_local, VEC4),
    Case(language.nested_def_with_loop, VEC4),
    Case(language.star_args_callee, VEC3, POS3),
    Case(language.kwargs_callee, VEC3),
    Case(language.keyword_only, POS3),
    Case(language.keyword_only_callee, VEC3, 0.4),
    Case(language.with_errstate, VEC3),
    Case(language.with_nullcontext, VEC3),
    Case(language.try_finally, VEC3),
    Case(language.assert_and_print, VEC3),
    Case(language.ternary_in_loop, VEC4),
    Case(language.while_with_tolerance, 2.0),
    Case(language.default_from_global, VEC4),
    Case(language.multiple_returns, POS3, id="multiple_returns_scaled"),
    Case(language.multiple_returns, POS3 / 2.0, id="multiple_returns_plain"),
    # array methods and attributes
    Case(methods.sum_mean_methods, MAT23),
    Case(methods.max_min_methods, MAT23),
    Case(methods.prod_method, VEC4),
    Case(methods.dot_method, MAT23, VEC3),
    Case(methods.reshape_methods, VEC6),
    Case(methods.transpose_and_T, MAT23),
    Case(methods.transpose_axes, 0.1 * np.arange(24.0).reshape(2, 3, 4) - 1.0),
    Case(methods.ravel_flatten, MAT23),
    Case(methods.copy_then_write, VEC3),
    Case(methods.astype_float, VEC3),
    Case(methods.clip_method, np.array([-0.9, -0.2, 0.35, 0.8])),
    Case(methods.squeeze_method, VEC3),
    Case(methods.std_var_methods, MAT23),
    Case(methods.cumsum_method, VEC4),
    Case(methods.shape_ndim_size, MAT23),
    Case(methods.shape_driven_loop, MAT23),
    Case(methods.chained_methods, 0.6 * MAT23),
    Case(methods.normalise_rows, MAT23),
    Case(methods.standardise, VEC6),
]

VECTOR_CASES = [
    Case(vector_valued.elementwise, VEC3),
    Case(vector_valued.rotate, 0.4, np.array([1.0, 2.0])),
    Case(vector_valued.matvec, MAT23, VEC3),
    Case(vector_valued.running_sum, VEC4),
    Case(vector_valued.softmax, VEC4),
    Case(vector_valued.row_means, MAT23),
]


def _marks(case, index=None, gradients=True):
    """The strict xfail mark of a known failure: for the gradient w.r.t. ``index`` (all
    of them when None), and, for a program srcgrad rejects, for its other tests too."""
    applies = gradients or case.rejected
    if index is not None and case.xfail_wrt is not None:
        applies = index in case.xfail_wrt
    return [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail and applies else []


def _by_wrt(cases):
    return [pytest.param(case, i, id=f"{case.id}-wrt{i}", marks=_marks(case, i))
            for case in cases for i in case.wrt]


def _each(cases, gradients=True):
    return [pytest.param(case, id=case.id, marks=_marks(case, gradients=gradients))
            for case in cases]


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, dtype=float), expected, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("case, index", _by_wrt(SCALAR_CASES))
def test_directional_derivative(case, index):
    gradient = sg.grad(case.fn, wrt=index)(*case.fresh_args())
    primal = case.args[index]
    assert_same_structure(gradient, primal)
    f, x = case.along(index)
    numeric, analytic = directional_check(f, [x], 0, flatten_like(gradient, primal))
    assert math.isclose(analytic, numeric, rel_tol=RTOL, abs_tol=ATOL)


@pytest.mark.parametrize("case, index", _by_wrt(SCALAR_CASES))
def test_elementwise_finite_differences(case, index):
    gradient = sg.grad(case.fn, wrt=index)(*case.fresh_args())
    f, x = case.along(index)
    _close(flatten_like(gradient, case.args[index]), numeric_grad(f, [x], 0))


@pytest.mark.parametrize("case", _each(SCALAR_CASES, gradients=False))
def test_value_and_grad_value_is_f(case):
    value, _ = sg.value_and_grad(case.fn, wrt=case.wrt)(*case.fresh_args())
    assert value == pytest.approx(case.fn(*case.fresh_args()), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("case", _each(SCALAR_CASES))
def test_tuple_wrt_matches_single_wrt(case):
    together = sg.grad(case.fn, wrt=case.wrt)(*case.fresh_args())
    assert isinstance(together, tuple) and len(together) == len(case.wrt)
    for index, gradient in zip(case.wrt, together):
        f, x = case.along(index)
        _close(flatten_like(gradient, case.args[index]), numeric_grad(f, [x], 0))


@pytest.mark.parametrize("case", _each(SCALAR_CASES, gradients=False))
def test_inputs_are_not_mutated(case):
    args = case.fresh_args()
    sg.value_and_grad(case.fn, wrt=case.wrt)(*args)
    for before, after in zip(case.args, args):
        np.testing.assert_array_equal(flatten(before), flatten(after))


@pytest.mark.parametrize("case, index", _by_wrt(VECTOR_CASES))
def test_vjp_against_jvp_by_finite_differences(case, index):
    rng = np.random.default_rng(7)
    value, backward = sg.vjp(case.fn, wrt=index)(*case.fresh_args())
    np.testing.assert_allclose(value, case.fn(*case.fresh_args()), rtol=1e-12)
    u = rng.standard_normal(np.shape(value))
    x = np.asarray(case.args[index], dtype=float)
    v = rng.standard_normal(x.shape)
    eps = 1e-6

    def at(step):
        args = case.fresh_args()
        args[index] = x + step * v if x.ndim else float(x + step * v)
        return np.asarray(case.fn(*args))

    jv = (at(eps) - at(-eps)) / (2 * eps)
    jtu = backward(u)
    assert np.shape(jtu) == np.shape(case.args[index])
    assert float(np.sum(jtu * v)) == pytest.approx(float(np.sum(u * jv)), rel=RTOL, abs=ATOL)


@pytest.mark.parametrize("case, index", _by_wrt(VECTOR_CASES))
def test_vjp_elementwise(case, index):
    rng = np.random.default_rng(11)
    value, backward = sg.vjp(case.fn, wrt=index)(*case.fresh_args())
    u = rng.standard_normal(np.shape(value))

    def projected(*args):
        return float(np.sum(u * case.fn(*args)))

    _close(backward(u), numeric_grad(projected, case.fresh_args(), index))


FLOAT32_PROGRAMS = {   # id -> why its gradient is known not to be float32 (None: it is)
    "logistic_regression": None, "mlp_dict_params": None, "dataclass_loss": None,
    "namedtuple_loss": None, "list_comprehension": None, "enumerate_loop": None,
    "sum_mean_methods": None, "std_var_methods": None, "ravel_flatten": None,
    "append_in_loop": None,
    "rnn_loss": None,
    "gmm_log_likelihood": None,
}


def _float32_marks(case):
    reason = FLOAT32_PROGRAMS[case.id]
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_float32_marks(c))
                                  for c in SCALAR_CASES if c.id in FLOAT32_PROGRAMS])
def test_float32_arguments_get_float32_gradients(case):
    """float32 arrays in, float32 gradients out, agreeing with finite differences of the
    float64 program to float32 accuracy."""
    args = [cast_arrays(a, np.float32) for a in case.fresh_args()]
    gradients = sg.grad(case.fn, wrt=case.wrt)(*args)
    for index, gradient in zip(case.wrt, gradients):
        assert_same_structure(gradient, args[index])
        f, x = case.along(index)
        np.testing.assert_allclose(flatten_like(gradient, args[index]), numeric_grad(f, [x], 0),
                                   rtol=2e-3, atol=2e-4)


def test_corpus_size():
    programs = {c.fn for c in SCALAR_CASES + VECTOR_CASES}
    assert len(programs) >= 150
