"""Optimizer passes over generated code, run to a fixpoint by ``optimize_sweeps``."""

from srcgrad.optimize.copy_prop import propagate_copies
from srcgrad.optimize.dce import eliminate_dead_code
from srcgrad.optimize.saves import prune_saves
from srcgrad.optimize.shape_saves import save_shapes


def optimize_sweeps(forward, backward, backward_live_out, result_names=()):
    """Prune unneeded saves, clean the backward sweep until nothing changes, then drop
    forward computations that neither the result nor the backward sweep reads, and save
    only the shape of what the backward sweep reads only as a shape."""
    live_out = set(backward_live_out) | set(result_names)
    forward, backward, saved = prune_saves(forward, backward, live_out)
    while True:
        changed = False
        backward, c1 = propagate_copies(backward)
        backward, c2 = eliminate_dead_code(backward, backward_live_out)
        changed = c1 or c2
        if not changed:
            break
    forward, backward, saved = prune_saves(forward, backward, live_out)
    forward_live_out = set(result_names) | _loaded(backward) | set(backward_live_out)
    while True:
        forward, changed = eliminate_dead_code(forward, forward_live_out)
        if not changed:
            break
    return save_shapes(forward, backward), backward, saved


def _loaded(body):
    from srcgrad import syntax

    names = set()
    for stmt in body:
        names.update(syntax.loaded_names(stmt))
    return names
