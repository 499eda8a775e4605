"""Optimizer passes over generated code, run to a fixpoint by ``optimize_sweeps``."""

from srcgrad.optimize.copy_prop import propagate_copies
from srcgrad.optimize.dce import eliminate_dead_code
from srcgrad.optimize.release import release_shapes
from srcgrad.optimize.saves import prune_saves
from srcgrad.optimize.shape_saves import save_shapes
from srcgrad.optimize.spreads import compact_spreads


def optimize_sweeps(forward, backward, backward_live_out, result_names=()):
    """Prune unneeded saves, clean the backward sweep until nothing changes, then drop
    forward computations that neither the result nor the backward sweep reads, and save
    only the shape of what the backward sweep reads only as a shape (pushed in a loop,
    or released after its last forward use)."""
    live_out = set(backward_live_out) | set(result_names)
    forward, backward, saved = prune_saves(forward, backward, live_out)
    copies_done = dead_code_done = False   # (dead code elimination runs to its fixpoint)
    while not (copies_done and dead_code_done):
        backward, copied = propagate_copies(backward)
        copies_done = not copied
        dead_code_done = dead_code_done and not copied
        if not dead_code_done:
            backward, removed = eliminate_dead_code(backward, backward_live_out)
            dead_code_done, copies_done = True, copies_done and not removed
    forward, backward, saved = prune_saves(forward, backward, live_out)
    backward = compact_spreads(backward, backward_live_out)
    forward_live_out = set(result_names) | _loaded(backward) | set(backward_live_out)
    forward, _ = eliminate_dead_code(forward, forward_live_out)
    forward = release_shapes(save_shapes(forward, backward), backward, result_names)
    return forward, backward, saved


def _loaded(body):
    from srcgrad import syntax

    names = set()
    for stmt in body:
        names.update(syntax.loaded_names(stmt))
    return names
