"""Normalization: rewrite the user's function into the small core language the modes read.

Passes run in order (each in its own module, one rewrite each): ``function_tables``
(a container of lambdas and local ``def``s whose items are only called) -> ``nested_derivatives``
(lifts local functions given to ``sg.grad``...) -> ``partials`` (a global
``functools.partial`` called as what it wraps) -> ``index_objects`` (``np.r_[x, c]``
as the join it is) -> ``sequence_operands`` (lists given to
elementwise NumPy functions become arrays) -> ``local_functions`` (collects nested
``def``s) -> ``exceptions`` (``except`` handlers' code after the ``try``) ->
``namespace_parameters`` (a parameter used as an array API namespace is checked to be
one) -> ``desugar``
-> ``control_flow`` -> ``variables`` (eager units) -> ``anf`` (with ``expansions`` and
``inline``) -> ``frozen_distributions`` -> ``tuples`` -> ``aliased_writes`` ->
``branch_tests`` -> ``rename`` -> ``raising`` (marks what dead code elimination keeps).
The result uses only: ``name = simple_expr``, ``name[index] = atom``, bare calls,
``if name:``, ``for name in atom:``, ``while name:``, ``with``, ``try``/``finally``,
``try`` with handlers that only assign names (``exceptions``), a trailing
``if flag: break`` in loop bodies, ``raise``, and one final ``return atom``.
"""

from srcgrad.syntax import gast
from srcgrad.syntax.trees import _FLAT_STATEMENTS


def map_blocks(body, rewrite):
    """Apply ``rewrite(stmt) -> [stmts]`` to every statement, inner blocks first."""
    out = []
    for stmt in body:
        if type(stmt) not in _FLAT_STATEMENTS:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(stmt, field, None), list) \
                        and not isinstance(stmt, gast.Raise):
                    setattr(stmt, field, map_blocks(getattr(stmt, field), rewrite))
        out.extend(rewrite(stmt))
    return out


def normalize_function(parsed, namer, eager=False, inline=True):
    """Run every normalization pass over ``parsed.node`` (in place) and return it.
    ``eager``: wrap every load that may be a Variable (see ``variables``); ``inline``:
    inline small module-level functions (see ``inline``; in eager units the inlined body's
    Variable reads are wrapped as the caller's are)."""
    from srcgrad import syntax
    from srcgrad.frontend import transforms
    from srcgrad.normalize import anf, control_flow, desugar, rename, tuples, variables
    from srcgrad.normalize.aliased_writes import follow_aliased_writes
    from srcgrad.normalize.branch_tests import freeze_branch_tests
    from srcgrad.normalize.exceptions import lower_handlers
    from srcgrad.normalize.factories import inline_factories
    from srcgrad.normalize.frozen_distributions import call_frozen_methods
    from srcgrad.normalize.function_tables import rewrite_tables
    from srcgrad.normalize.index_objects import rewrite_index_objects
    from srcgrad.normalize.inline import Inliner
    from srcgrad.normalize.local_functions import collect_local_functions
    from srcgrad.normalize.namespace_parameters import check_namespace_parameters
    from srcgrad.normalize.nested_derivatives import lift_local_derivatives
    from srcgrad.normalize.nested_tapes import lower_nested_tapes
    from srcgrad.normalize.nested_vjp import lower_nested_vjps
    from srcgrad.normalize.partials import call_partials
    from srcgrad.normalize.raising import mark_raising
    from srcgrad.normalize.sequence_operands import convert_sequence_operands

    node = parsed.node
    rewrite_tables(parsed, namer)
    # The function's nodes by class, walked once for the four passes below: made again
    # only after one of them changed the tree.
    groups = syntax.by_type(syntax.walk(node))
    if transforms.calls_srcgrad(parsed, groups):   # (else these three have nothing to lower)
        lower_nested_tapes(parsed, namer)
        lower_nested_vjps(parsed, namer)
        lift_local_derivatives(parsed, namer)
        groups = None
    if call_partials(parsed, groups=groups):
        groups = None
    if rewrite_index_objects(parsed, groups=groups):
        groups = None
    convert_sequence_operands(parsed, groups)
    if inline:
        inline_factories(parsed, namer)
    local_functions = collect_local_functions(parsed, namer)
    node.body = lower_handlers(node.body, namer)
    node.body = check_namespace_parameters(node)
    node.body = desugar.desugar(node.body, namer)
    node.body = control_flow.to_single_exit(node.body, namer)
    node.body = variables.wrap_variable_reads(node.body, parsed, namer, eager)
    inliner = Inliner(parsed, namer, eager) if inline else None
    node.body = anf.to_anf(node.body, namer, local_functions, parsed, inliner)
    node.body = call_frozen_methods(node.body, parsed, namer)
    node.body = tuples.forward_tuple_items(node.body)   # (first: `w = t[0]` is `w = y`)
    node.body = follow_aliased_writes(node.body, syntax.param_names(node.args), parsed, namer)
    node.body = freeze_branch_tests(node.body, namer)
    node.body = rename.rename_reassignments(node.body, syntax.param_names(node.args), namer)
    node.body = mark_raising(node.body, parsed)
    return node
