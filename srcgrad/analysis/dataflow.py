"""A generic worklist solver for gen/kill-style dataflow problems over a ``CFG``.

``solve(cfg, transfer, forward=True, meet=union, boundary=frozenset())`` returns
``(before, after)``: for each node, the facts on entry and on exit in the direction of
the analysis (for a backward analysis ``before`` is the fact after the statement).
"""

from __future__ import annotations


def union(sets):
    result = frozenset()
    for s in sets:
        result |= s
    return result


def intersection(sets):
    sets = list(sets)
    if not sets:
        return frozenset()
    result = sets[0]
    for s in sets[1:]:
        result &= s
    return result


def solve(cfg, transfer, forward=True, meet=union, boundary=frozenset(), top=None):
    """Iterate ``transfer(node, fact) -> fact`` to a fixpoint.

    ``top`` is the initial fact for every node other than the boundary (the empty set for
    may-analyses; the universe for must-analyses).
    """
    start = cfg.entry if forward else cfg.exit
    initial = frozenset() if top is None else top
    before = {node: initial for node in cfg.nodes}
    after = {node: initial for node in cfg.nodes}
    before[start] = boundary
    after[start] = transfer(start, boundary)
    worklist = list(cfg.nodes)
    while worklist:
        node = worklist.pop(0)
        sources = node.pred if forward else node.succ
        if node is start:
            fact_in = boundary
        else:
            fact_in = meet([after[s] for s in sources]) if sources else initial
        fact_out = transfer(node, fact_in)
        if fact_in != before[node] or fact_out != after[node]:
            before[node], after[node] = fact_in, fact_out
            for nxt in (node.succ if forward else node.pred):
                if nxt not in worklist:
                    worklist.append(nxt)
    return before, after


def defined_names(cfg, params, definitely=False):
    """Names possibly (or, with ``definitely``, surely) assigned on entry to each node."""
    universe = frozenset(n for node in cfg.nodes for n in node.defs) | frozenset(params)

    def transfer(node, fact):
        return fact | node.defs

    before, _ = solve(cfg, transfer, forward=True,
                      meet=intersection if definitely else union,
                      boundary=frozenset(), top=universe if definitely else frozenset())
    return before


def live_names(cfg, live_at_exit=frozenset()):
    """Names whose current value may still be read, just after each node."""

    def transfer(node, fact):
        return (fact - node.defs) | node.uses

    after_node, _ = solve(cfg, transfer, forward=False, boundary=frozenset(live_at_exit))
    return after_node
