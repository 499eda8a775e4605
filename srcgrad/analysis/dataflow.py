"""A generic worklist solver for gen/kill-style dataflow problems over a ``CFG``.

``solve(cfg, transfer, forward=True, meet=union, boundary=frozenset())`` returns
``(before, after)``: for each node, the facts on entry and on exit in the direction of
the analysis (for a backward analysis ``before`` is the fact after the statement).
Facts are anything ``meet`` combines and ``==`` compares: frozensets, or the bit vectors
of ``analysis.bits`` that the analyses below use (linear work per node, not per name).

Nodes are visited in reverse post-order along the analysis (``cfg.order``), the earliest
queued node first (a heap that holds each node at most once); straight-line code is
solved in one sweep, a loop settles before the code after it.
"""

from __future__ import annotations

import heapq

from srcgrad.analysis import fixpoint
from srcgrad.analysis.bits import FactMap
from srcgrad.analysis.cfg import CFG, statement_defs_uses
from srcgrad.syntax import gast


def union(facts):
    facts = iter(facts)
    result = next(facts, frozenset())
    for fact in facts:
        result = result | fact
    return result


def intersection(facts):
    facts = iter(facts)
    result = next(facts, frozenset())
    for fact in facts:
        result = result & fact
    return result


def solve(cfg, transfer, forward=True, meet=union, boundary=frozenset(), top=None):
    """Iterate ``transfer(node, fact) -> fact`` to a fixpoint.

    ``top`` is the initial fact for every node other than the boundary (the empty set for
    may-analyses; the universe for must-analyses). The node visited next is always the
    earliest queued one in the order of the analysis: a loop settles before the code
    after it is visited (a FIFO queue sent every change at a loop's back edge through
    all the code that follows, once per loop). Every node is queued at first: those not
    visited yet are the ranks from a cursor on, and only the nodes queued again behind
    it are kept in a heap (straight-line code never uses it).
    """
    initial = frozenset() if top is None else top
    order = cfg.order(forward)
    sources, targets = cfg.neighbour_ranks(forward)
    start = sources.index(None)   # (the entry's rank, or the exit's)
    count = len(order)
    before, after = [initial] * count, [initial] * count
    behind, queued = [], bytearray(count)   # a heap of the ranks queued again
    cursor = 0   # every rank from the cursor on is yet to be visited
    # Termination: facts are sets of the graph's names, and a monotone transfer changes a
    # node's fact at most once per name (plus once); each change queues its targets again.
    height = len(cfg.index.names) + 2
    bound = count + count * height * max([len(t) for t in targets] + [1])
    for _ in fixpoint.rounds(bound, "a dataflow analysis"):
        if behind:
            at = heapq.heappop(behind)
            queued[at] = 0
        elif cursor < count:
            at, cursor = cursor, cursor + 1
        else:
            break
        incoming = sources[at]
        if at == start:
            fact_in = boundary
        elif len(incoming) == 1:
            fact_in = after[incoming[0]]
        else:
            fact_in = meet([after[s] for s in incoming]) if incoming else initial
        fact_out = transfer(order[at], fact_in)
        if fact_out != after[at] or fact_in != before[at]:
            before[at], after[at] = fact_in, fact_out
            for target in targets[at]:
                if target < cursor and not queued[target]:
                    queued[target] = 1
                    heapq.heappush(behind, target)
    return dict(zip(order, before)), dict(zip(order, after))


def gen_kill(rules):
    """The transfer of rules ``node -> (kill, trigger, gen, always)`` over bit vectors:
    ``(fact - kill) | always``, plus ``gen`` when ``fact`` meets ``trigger``.

    Each operation on a fact costs as many machine words as the graph has names (a bit
    set high in a long function makes a long int), so the transfer makes as few as it
    can: nothing to kill in ``fact`` leaves it as is, and an assignment's rule (``gen``
    is what it kills, nothing always added) is one ``|`` when it fires."""
    def transfer(node, fact):
        kill, trigger, gen, always = rules[node]
        triggered = trigger and fact & trigger
        if triggered and gen == kill and not always:
            return fact | gen
        out = fact & ~kill if kill and fact & kill else fact
        if always:
            out = out | always
        return out | gen if triggered else out
    return transfer


def defined_names(cfg, params, definitely=False):
    """Names possibly (or, with ``definitely``, surely) assigned on entry to each node."""
    index = cfg.index
    universe = index.bits(params)
    for node in cfg.nodes:
        universe |= node.def_bits

    def transfer(node, fact):
        return fact | node.def_bits

    before, _ = solve(cfg, transfer, forward=True,
                      meet=intersection if definitely else union,
                      boundary=0, top=universe if definitely else 0)
    return FactMap(index, before)


def surely_defined_after(body, params, uses=None):
    """Names surely bound once ``body`` has run to its end (``params`` among them). Code
    without control flow binds every name it assigns: no graph needed. (``uses``: an
    ``optimize.uses.UseCache`` that knows the statements' names already.)"""
    if all(type(stmt) in (gast.Assign, gast.AugAssign, gast.Expr, gast.Pass)
           for stmt in body):
        names = set(params)
        defs_uses = statement_defs_uses if uses is None else uses.defs_uses
        for stmt in body:
            names.update(defs_uses(stmt)[0])
        return frozenset(names)
    cfg = CFG(params, body)
    return frozenset(defined_names(cfg, params, definitely=True)[cfg.exit]) | frozenset(params)


def live_names(cfg, live_at_exit=frozenset()):
    """Names whose current value may still be read, just after each node."""
    index = cfg.index

    def transfer(node, fact):
        return (fact & ~node.def_bits) | node.use_bits

    after_node, _ = solve(cfg, transfer, forward=False, boundary=index.bits(live_at_exit),
                          top=0)
    return FactMap(index, after_node)
