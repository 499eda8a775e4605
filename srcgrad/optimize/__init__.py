"""Optimizer passes over generated code, run to a fixpoint by ``optimize_sweeps``."""

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.optimize.copy_prop import propagate_copies
from srcgrad.optimize.dce import eliminate_dead_code
from srcgrad.optimize.fused_products import fuse_product_reductions
from srcgrad.optimize.negated_starts import fold_negated_scalings, fold_negated_starts
from srcgrad.optimize.release import release_shapes
from srcgrad.optimize.reuse import reuse_dead_operands
from srcgrad.optimize.saves import prune_saves
from srcgrad.optimize.shape_saves import save_shapes
from srcgrad.optimize.spreads import compact_spreads
from srcgrad.optimize.uses import UseCache


def optimize_sweeps(forward, backward, backward_live_out, result_names=(), uses=None,
                    reuse=True):
    """Prune unneeded saves, clean the backward sweep until nothing changes, then drop
    forward computations that neither the result nor the backward sweep reads, sum
    products back to their operands' shapes in one pass, and save only the shape of
    what the backward sweep reads only as a shape (pushed in a loop, or released after
    its last forward use); with ``reuse`` (arrays may be large), let a sum write into an
    operand that is dead but for its shape. The passes share one ``UseCache``
    (``uses``, the caller's if given): each statement is walked once, not once per
    pass."""
    uses = UseCache() if uses is None else uses
    live_out = set(backward_live_out) | set(result_names)
    forward, backward, saved = prune_saves(forward, backward, live_out)
    copies_done = dead_code_done = False   # (dead code elimination runs to its fixpoint)
    # each round that goes on removes a statement (a folded copy, or dead code)
    bound = syntax.count_statements(backward) + 2
    for _ in fixpoint.rounds(bound, "copy propagation and dead code elimination"):
        if copies_done and dead_code_done:
            break
        backward, copied = propagate_copies(backward, uses=uses)
        copies_done = not copied
        dead_code_done = dead_code_done and not copied
        if not dead_code_done:
            backward, removed = eliminate_dead_code(backward, backward_live_out, uses)
            dead_code_done, copies_done = True, copies_done and not removed
    forward, backward, saved = prune_saves(forward, backward, live_out)
    backward = fuse_product_reductions(compact_spreads(backward, backward_live_out, uses),
                                       uses)
    backward = fold_negated_scalings(fold_negated_starts(backward), live_out)
    forward_live_out = set(result_names) | uses.reads(backward) | set(backward_live_out)
    forward, _ = eliminate_dead_code(forward, forward_live_out, uses)
    forward = release_shapes(save_shapes(forward, backward, uses), backward, result_names,
                             uses)
    if reuse:
        forward = reuse_dead_operands(forward, backward, result_names, uses)
    return forward, backward, saved
