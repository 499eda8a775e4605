"""Dense Jacobians of pytree functions (``jacobian``, ``jacfwd``, ``jacrev``) and
autograd's ``elementwise_grad``.

A Jacobian is built from forward-mode columns (all of them in one sweep of the batched
forward mode, ``api.batched_columns``, where it applies; else one ``jvp`` per input
element) or reverse-mode rows (all of them in one backward sweep of the batched reverse
mode, ``api.batched_rows``, where it applies; else one backward sweep per output
element). Inputs and outputs may be
pytrees (``srcgrad.api.pytree``): the result nests the output's structure around the
input's, each leaf an array shaped output leaf + input leaf (JAX's layout)::

    def f(x):                                 # x: shape (3,)
        return {"s": np.sin(x), "n": x @ x}

    sg.jacobian(f)(x)                         # {"s": (3, 3) array, "n": (3,) array}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from srcgrad.api import dense_callees, pytree
from srcgrad.api import functional as api
from srcgrad.api.batched_columns import batched_columns, fill_blocks
from srcgrad.api.batched_rows import RowsPlan, batched_rows
from srcgrad.api.tracebacks import api_boundary
from srcgrad.api.typing import Function, Wrt
from srcgrad.codegen.pickling import attribute, derivative, with_attributes
from srcgrad.errors import TransformError
from srcgrad.frontend import transforms
from srcgrad.runtime import core
from srcgrad.runtime.namespaces import is_foreign


@api_boundary
def jacobian(f: Function, wrt: Wrt = api.FIRST, *,
             argnums: int | Sequence[int] | None = None, sparse: bool = False) -> Function:
    """A function with ``f``'s signature returning the dense Jacobian of ``f``'s output
    w.r.t. ``wrt``, shaped output shape + input shape (a tuple of them for a tuple
    ``wrt``; pytrees nest as the output around the input). Uses forward mode when the
    inputs have fewer elements than the output, reverse otherwise. ``wrt``, ``argnums``
    as for ``sg.grad``.

    With ``sparse=True``, a ``scipy.sparse.csr_array``: rows the output's elements (C
    order; a tuple output's items concatenated), columns the ``wrt`` arguments' elements
    (C order, concatenated), from the pattern found in the source and a colouring, both
    kept per argument shapes (``srcgrad.api.sparse``; docs/sparse.md)."""
    if sparse:
        from srcgrad.api.sparse import sparse_jacobian

        return derivative(sparse_jacobian(f, api.wrt_or_argnums(wrt, argnums)),
                          "srcgrad.api.jacobians.jacobian", f, wrt=wrt, argnums=argnums,
                          sparse=True)
    return derivative(_jacobian(f, api.wrt_or_argnums(wrt, argnums), None),
                      "srcgrad.api.jacobians.jacobian", f, wrt=wrt, argnums=argnums)


@api_boundary
def jacfwd(f: Function, wrt: Wrt = api.FIRST, *,
           argnums: int | Sequence[int] | None = None) -> Function:
    """``jacobian`` by forward mode: all the columns in one sweep of the batched forward
    mode (in chunks for a large input), or one ``jvp`` per input element where the
    function has no batched form (``wrt``, ``argnums`` as for ``sg.grad``)."""
    return derivative(_jacobian(f, api.wrt_or_argnums(wrt, argnums), "forward"),
                      "srcgrad.api.jacobians.jacfwd", f, wrt=wrt, argnums=argnums)


@api_boundary
def jacrev(f: Function, wrt: Wrt = api.FIRST, *,
           argnums: int | Sequence[int] | None = None) -> Function:
    """``jacobian`` by reverse mode: all the rows in one batched backward sweep (in
    chunks for a large output), or one backward sweep per output element where the
    function has no batched form (``wrt``, ``argnums`` as for ``sg.grad``)."""
    return derivative(_jacobian(f, api.wrt_or_argnums(wrt, argnums), "reverse"),
                      "srcgrad.api.jacobians.jacrev", f, wrt=wrt, argnums=argnums)


@api_boundary
def elementwise_grad(f: Function, wrt: Wrt = api.FIRST, *,
                     argnums: int | Sequence[int] | None = None) -> Function:
    """autograd's ``elementwise_grad``: the vector-Jacobian product with a cotangent of
    ones, i.e. the gradient of ``sum(f(...))``. For an elementwise ``f`` it is the
    derivative of each output element w.r.t. its input element. Returns a function with
    ``f``'s signature; ``wrt``, ``argnums`` as for ``sg.grad``."""
    vjp_fn = api.vjp(f, api.wrt_or_argnums(wrt, argnums))

    def elementwise_grad_fn(*args, **kwargs):
        value, backward = vjp_fn(*args, **kwargs)
        for leaf in pytree.leaves(value):
            if np.iscomplexobj(leaf):
                raise TypeError(core.complex_output_message("sg.elementwise_grad",
                                                            np.asarray(leaf).dtype))
        return backward(pytree.ones_like(value))

    unit = attribute(vjp_fn, "unit")
    with_attributes(elementwise_grad_fn, source=attribute(vjp_fn, "source"), unit=unit)
    _nests(elementwise_grad_fn, f, wrt, argnums, "elementwise_grad", "sg.elementwise_grad",
           _forward=unit.forward, _backward=unit.backward)
    return derivative(elementwise_grad_fn, "srcgrad.api.jacobians.elementwise_grad", f, wrt=wrt,
                      argnums=argnums)


def _jacobian(f, wrt, mode):
    from srcgrad.api.higher import jvp

    fn, bound = api._target(f)
    names = api.resolve_wrt(fn, wrt, bound)
    single = isinstance(names, str)
    names = (names,) if single else names
    params = api.parameter_names(fn, bound)
    forward = jvp(f, names) if mode != "reverse" else None
    backward = api.vjp(f, names) if mode != "forward" else None
    plan = RowsPlan(f, names) if mode != "forward" else None

    tall = {}   # input shapes -> did the last output have as many elements as inputs?

    def jacobian_fn(*args):
        inputs = [_float_tree(args[params.index(n)], n) for n in names]
        in_leaves = [leaf for tree in inputs for leaf in pytree.leaves(tree)]
        columns = batched = rows = None
        shapes = tuple((x.shape, x.dtype) for x in in_leaves)
        if mode == "forward" or mode is None and tall.get(shapes):
            # (``jacobian`` of a function whose output was as large as its inputs for
            # these shapes: straight to the columns, without a reverse sweep first)
            batched = batched_columns(f, names, args, inputs)
            if batched is None:
                value, columns = _columns(forward, args, inputs)
        else:
            rows = batched_rows(plan, args, inputs)
            value, pullback = (rows.value, None) if rows is not None else backward(*args)
            out_size = sum(np.size(leaf) for leaf in pytree.leaves(value))
            if mode is None:
                tall[shapes] = out_size >= sum(leaf.size for leaf in in_leaves)
            if mode is None and tall[shapes]:
                rows = None
                batched = batched_columns(f, names, args, inputs)
                if batched is None:
                    value, columns = _columns(forward, args, inputs)
        if rows is not None:   # one array out of array inputs: no pytrees to walk
            found = _rows_only(rows, single)
            if found is not None:
                return found
            pullback = backward(*args)[1]   # (a step with no batched form met as it ran)
            rows = None
        if batched is not None:
            value = batched[0]
        out_leaves, out_def = pytree.flatten(value)
        _check_float_outputs(out_leaves)
        blocks = [[np.zeros(np.shape(o) + x.shape, dtype=_block_dtype(o, x)) for x in in_leaves]
                  for o in out_leaves]
        if batched is not None:
            fill_blocks(blocks, batched[1], in_leaves)
        elif columns is not None:
            _fill_from_columns(blocks, columns, in_leaves)
        else:
            _fill_from_rows(blocks, pullback, out_leaves, out_def, single)
        return out_def.unflatten(_nest(inputs, row, single) for row in blocks)

    # The generated code it runs: the forward-mode function, the reverse one, or both
    # (``jacobian`` picks by the shapes of each call).
    # (and the batched backward sweep that takes all the rows, where there is one)
    batched_unit = plan.unit() if plan is not None else None
    jacobian_fn.source = "\n\n".join(
        [derivative_fn.source for derivative_fn in (forward, backward) if derivative_fn]
        + ([batched_unit.source] if batched_unit is not None else []))
    what = {None: "sg.jacobian", "forward": "sg.jacfwd", "reverse": "sg.jacrev"}[mode]
    if mode == "reverse":
        unit = attribute(backward, "unit")
        _nests(jacobian_fn, f, wrt, None, "jacrev", what, _forward=unit.forward,
               _backward=unit.backward)
    else:
        _nests(jacobian_fn, f, wrt, None, "jacobian", what, _jvp=attribute(forward, "unit").jvp)
    return jacobian_fn


def _rows_only(rows, single):
    """The Jacobian from batched reverse-mode rows (``api.batched_rows``: array inputs,
    one array or number out), or None where a step met as it ran has no batched form."""
    value, inputs = rows.value, rows.inputs
    _check_float_outputs([value])
    blocks = [[np.zeros(np.shape(value) + x.shape, dtype=_block_dtype(value, x))
               for x in inputs]]
    if not rows.fill(blocks):
        return None
    return blocks[0][0] if single else tuple(blocks[0])


def _nests(function, f, wrt, argnums, role, what, **functions):
    """Give ``function`` the generated function that code being differentiated calls in
    its place (``api.dense_callees``), when there is one."""
    fn, bound = api._target(f)
    names = api.resolve_wrt(fn, api.wrt_or_argnums(wrt, argnums), bound)
    names = (names,) if isinstance(names, str) else tuple(names)
    callee = dense_callees.dense_callee(fn, bound, names, role, what, **functions)
    if callee is not None:
        with_attributes(function, __srcgrad_function__=callee)


def _float_tree(tree, name):
    def leaf(x):
        if is_foreign(x):   # (np.asarray would turn it into a NumPy array)
            raise TransformError(
                f"srcgrad builds Jacobians and Hessians as NumPy arrays so far; argument "
                f"{name!r} is a {type(x).__module__}.{type(x).__qualname__}. Use sg.vjp, "
                "sg.jvp or sg.hvp, whose results stay in the arrays' library")
        x = np.asarray(x)
        if x.dtype.kind not in "fc":
            if x.dtype.kind not in "iub":
                raise TypeError(f"jacobian: a leaf of argument {name!r} is a "
                                f"{type(x).__name__} of dtype {x.dtype}, not a number")
            x = x.astype(float)
        return x
    return pytree.tree_map(leaf, tree)


def _block_dtype(out, x):
    """A block is in its input's float dtype, as gradients are; complex when the output
    or the input is complex (a float block would drop the imaginary part)."""
    out_dtype = np.asarray(out).dtype
    if out_dtype.kind == "c" or x.dtype.kind == "c":
        return np.result_type(out_dtype, x.dtype, np.complex64)
    return x.dtype


def _check_float_outputs(leaves):
    for leaf in leaves:
        if np.asarray(leaf).dtype.kind not in "fciub":
            raise TypeError(f"jacobian needs numeric outputs; the function returned a "
                            f"{type(leaf).__name__} among them")


def _basis(shape, index):
    e = np.zeros(shape)
    e[index] = 1.0
    return e if shape else float(e)


def _zeros(x):
    return np.zeros(x.shape) if x.shape else 0.0


def _columns(forward, args, inputs):
    """``(value, [[output tangent leaves] per input element, inputs' leaf order])``."""
    flat = [pytree.flatten(tree) for tree in inputs]
    every = [(k, i) for k, (leaves, _) in enumerate(flat) for i in range(len(leaves))]
    value, columns = None, []
    for k, i in every:
        x = flat[k][0][i]
        for in_index in np.ndindex(x.shape):
            tangents = tuple(
                treedef.unflatten(_basis(leaf.shape, in_index) if (j, m) == (k, i)
                                  else _zeros(leaf) for m, leaf in enumerate(leaves))
                for j, (leaves, treedef) in enumerate(flat))
            value, tangent = forward(*args, tangents)
            columns.append(pytree.leaves(core.restructure(tangent, value)))
    if value is None:   # no input elements: one run for the output's structure
        value = forward(*args, tuple(pytree.zeros_like(tree) for tree in inputs))[0]
    return value, columns


def _fill_from_columns(blocks, columns, in_leaves):
    column = iter(columns)
    for i, x in enumerate(in_leaves):
        for in_index in np.ndindex(x.shape):
            for j, tangent in enumerate(next(column)):
                blocks[j][i][(...,) + in_index] = tangent


def _fill_from_rows(blocks, pullback, out_leaves, out_def, single):
    for j, out in enumerate(out_leaves):
        shape = np.shape(out)
        for out_index in np.ndindex(shape):
            cotangent = out_def.unflatten(
                _basis(shape, out_index) if m == j else _zeros(np.asarray(leaf))
                for m, leaf in enumerate(out_leaves))
            grads = pullback(cotangent)
            row = pytree.leaves(grads if not single else (grads,))
            for i, gradient in enumerate(row):
                blocks[j][i][out_index] = gradient


def _nest(inputs, row, single):
    """One output leaf's blocks, in the inputs' structure (a tuple of them for a tuple
    ``wrt``)."""
    row = iter(row)
    trees = [pytree.flatten(tree)[1].unflatten(next(row) for _ in pytree.leaves(tree))
             for tree in inputs]
    return trees[0] if single else tuple(trees)

transforms.register(globals())   # sg.grad called in a differentiated function
