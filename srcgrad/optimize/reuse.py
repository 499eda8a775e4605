"""Let a sum reuse the memory of an operand the forward sweep made and no longer needs.

``np.tanh(x @ W1 + b1)`` makes one array of the hidden layer's size for the sum: NumPy
adds ``b1`` into the product, which no name holds (its temporary elision). Generated
code names the product, so NumPy makes a second array; the name is then dead but for
its shape (``release``). This pass hands the dead operand to ``_sg.sum_into`` /
``_sg.difference_into`` as the buffer, which write the result there exactly when NumPy's
elision would (``runtime.reuse``)::

    Before::                                   After::

        _matmul = x @ W1                           _matmul = x @ W1
        _add = _matmul + b1                        _add = _sg.sum_into(_matmul, _matmul, b1)
        _matmul = _sg.shape_of(_matmul)            _matmul = _sg.shape_of(_matmul)

An operand qualifies when it is a name bound once in the body (outside loops and
branches) by arithmetic, so a new array or a number that nothing else holds; not read
between there and the sum (no view or alias of it can exist), read once by the sum,
and afterwards only for its shape (``_sg.shape_of``, ``unbroadcast``'s template), in
either sweep; not the result, and read by no lambda or nested function. Only sums and
differences: they are linear, so differentiating the generated code again needs no
operand's value (a product's adjoint would read the overwritten factor).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.optimize.shape_saves import reads_by_role
from srcgrad.optimize.uses import UseCache
from srcgrad.syntax import gast

_HELPERS = {gast.Add: "_sg.sum_into", gast.Sub: "_sg.difference_into"}


def reuse_dead_operands(forward, backward, keep=(), uses=None):
    """Rewrite, in ``forward`` (in place), each sum or difference of a dead operand that
    qualifies (see the module docstring); ``keep``: the names of the result; ``uses``: a
    ``UseCache``, told of each statement changed."""
    uses = UseCache() if uses is None else uses
    made = _made_by_arithmetic(forward)
    operands = {operand.id for stmt in forward if plain_target(stmt) is not None
                and type(stmt.value) is gast.BinOp and type(stmt.value.op) in _HELPERS
                for operand in (stmt.value.left, stmt.value.right)
                if type(operand) is gast.Name} & set(made)
    if not operands:   # (no operand is ever an array the function made by arithmetic)
        return forward
    _, backward_values = reads_by_role(backward, uses)
    operands -= set(keep) | backward_values | uses.binds(backward) | uses.scoped(forward) \
        | uses.scoped(backward)
    if not operands:
        return forward
    reads, stores, shape_reads = _uses(forward, uses, operands)
    fresh = {}   # name -> position of its one binding, by arithmetic on arrays
    for position, stmt in enumerate(forward):
        target = plain_target(stmt)
        if made[position] is not None:
            fresh.setdefault(made[position], position)
        if target is None or type(getattr(stmt.value, "op", None)) not in _HELPERS \
                or not isinstance(stmt.value, gast.BinOp):
            continue
        for operand in (stmt.value.left, stmt.value.right):
            if isinstance(operand, gast.Name) and operand.id != target \
                    and operand.id in operands and _dead_after(
                        operand.id, position, fresh, reads, stores, shape_reads):
                stmt.value = syntax.call(_HELPERS[type(stmt.value.op)], [
                    syntax.name(operand.id), stmt.value.left, stmt.value.right])
                uses.forget(stmt)
                break
    return forward


def _made_by_arithmetic(forward):
    """For each statement of ``forward``, the name it binds by arithmetic on arrays
    (``array_valued``; ``a = b * c``, ``a = -b``), else None."""
    arrays, made = set(), []
    for stmt in forward:
        target = plain_target(stmt)
        if target is not None and array_valued(stmt.value, arrays):
            arrays.add(target)
            made.append(target if isinstance(stmt.value, (gast.BinOp, gast.UnaryOp)) else None)
        else:
            made.append(None)
    return made


def _dead_after(name, position, fresh, reads, stores, shape_reads):
    """Is ``name`` bound once by arithmetic before ``position``, read there once, and
    not read before (since its binding) nor after (but for its shape)?"""
    bound = fresh.get(name)
    if bound is None or stores.get(name, [])[:1] != [bound]:
        return False
    if any(store != bound and store <= position for store in stores[name]):
        return False
    own = reads.get(name, [])
    if own.count(position) != 1 or any(bound < at < position for at in own):
        return False
    later = [at for at in own if at > position]
    return len(later) == len(shape_reads.get(name, [])) and all(
        at > position for at in shape_reads.get(name, []))


# NumPy functions that reduce to a number unless given an ``axis``
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "amax", "amin",
                         "dot", "vdot", "inner", "trace", "average", "median"})


def array_valued(value, arrays):
    """Does ``value`` look like an array rather than a number (a product ``@``, a slice
    or ``None`` index, a NumPy call on an array, arithmetic on one)? Not a proof: a
    number only makes the helpers add as ``+`` does, at the cost of a call, which this
    spares code on numbers (and its reader)."""
    if isinstance(value, gast.Name):
        return value.id in arrays
    if isinstance(value, gast.BinOp):
        return isinstance(value.op, gast.MatMult) or array_valued(value.left, arrays) \
            or array_valued(value.right, arrays)
    if isinstance(value, gast.UnaryOp):
        return array_valued(value.operand, arrays)
    if isinstance(value, gast.Subscript):
        index = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
        return any(isinstance(i, gast.Slice) or (isinstance(i, gast.Constant) and i.value
                                                 is None) for i in index)
    if isinstance(value, gast.Call):
        func = syntax.dotted_name(value.func) or ""
        if func in _HELPERS.values():   # this pass's own sums
            return any(array_valued(arg, arrays) for arg in value.args[1:])
        if not func.startswith("np."):
            return False
        if func[3:] in _REDUCTIONS:
            return any(kw.arg == "axis" for kw in value.keywords)
        return any(array_valued(arg, arrays) for arg in value.args) or not value.args
    return False


def _uses(body, uses, names):
    """``(reads, stores, shape reads)``: for each of ``names``, the positions (in
    ``body``) of the statements that read it, once per read, that bind it, and that read
    it as a shape (``_sg.shape_of(v)``, a shape argument of a runtime helper); ``uses``:
    a ``UseCache``."""
    reads, stores, shapes = {}, {}, {}
    for position, stmt in enumerate(body):
        found = uses.of(stmt)
        for name in found.reads:
            if name in names:
                reads.setdefault(name, []).append(position)
        for name in found.binds:
            if name in names:
                stores.setdefault(name, []).append(position)
        for name in found.shape_reads:
            if name in names:
                shapes.setdefault(name, []).append(position)
        if "shape_of" in found.helpers:
            for name in _shape_of_reads(stmt):
                if name in names:
                    shapes.setdefault(name, []).append(position)
    return reads, stores, shapes


def _shape_of_reads(stmt):
    """The names read as ``_sg.shape_of(v)``'s argument in ``stmt``."""
    return [node.args[0].id for node in syntax.walk(stmt)
            if isinstance(node, gast.Call) and len(node.args) == 1
            and isinstance(node.args[0], gast.Name)
            and syntax.dotted_name(node.func) == "_sg.shape_of"]


def plain_target(stmt):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None
