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
    all the code that follows, once per loop).
    """
    start = cfg.entry if forward else cfg.exit
    initial = frozenset() if top is None else top
    order = cfg.order(forward)
    before = dict.fromkeys(order, initial)
    after = dict.fromkeys(order, initial)
    nodes = cfg.nodes
    rank = {node.position: i for i, node in enumerate(order)}
    queue = list(range(len(order)))   # ranks: a heap (already sorted)
    queued = set(queue)
    while queue:
        node = order[heapq.heappop(queue)]
        queued.discard(rank[node.position])
        sources = node.pred if forward else node.succ
        if node is start:
            fact_in = boundary
        elif len(sources) == 1:
            fact_in = after[nodes[sources[0]]]
        else:
            fact_in = meet([after[nodes[s]] for s in sources]) if sources else initial
        fact_out = transfer(node, fact_in)
        if fact_out != after[node] or fact_in != before[node]:
            before[node], after[node] = fact_in, fact_out
            for position in (node.succ if forward else node.pred):
                next_rank = rank[position]
                if next_rank not in queued:
                    queued.add(next_rank)
                    heapq.heappush(queue, next_rank)
    return before, after


def gen_kill(rules):
    """The transfer of rules ``node -> (kill, trigger, gen, always)`` over bit vectors:
    ``(fact - kill) | always``, plus ``gen`` when ``fact`` meets ``trigger``."""
    def transfer(node, fact):
        kill, trigger, gen, always = rules[node]
        out = (fact & ~kill) | always
        return out | gen if fact & trigger else out
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


def surely_defined_after(body, params):
    """Names surely bound once ``body`` has run to its end (``params`` among them). Code
    without control flow binds every name it assigns: no graph needed."""
    if all(type(stmt) in (gast.Assign, gast.AugAssign, gast.Expr, gast.Pass)
           for stmt in body):
        names = set(params)
        for stmt in body:
            names.update(statement_defs_uses(stmt)[0])
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
