"""analysis: the control-flow graph, the generic dataflow solver, and activity."""

from srcgrad.analysis.activity import analyze_activity
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import defined_names, live_names, solve
from srcgrad.syntax import gast
from tests.passes.helpers import statements


def graph(source, params=("x",)):
    body = statements(source)
    return CFG(list(params), body), body


def describe(node):
    if node.stmt is None:
        return node.kind  # the entry and exit nodes
    stmt = node.stmt
    if isinstance(stmt, gast.If):
        return "if"
    if isinstance(stmt, (gast.For, gast.While)):
        return "loop"
    if isinstance(stmt, gast.Return):
        return "return"
    if isinstance(stmt, gast.Break):
        return "break"
    return "=".join(sorted(node.defs)) or "stmt"


def edges(cfg):
    return sorted((describe(a), describe(cfg.nodes[b])) for a in cfg.nodes for b in a.succ)


# -- CFG -------------------------------------------------------------------------------
def test_straight_line_is_a_chain():
    cfg, _ = graph("a = x * 2\nb = a + 1\nreturn b")
    assert edges(cfg) == [("a", "b"), ("b", "return"), ("entry", "a"), ("return", "exit")]


def test_if_has_two_successors_that_merge():
    cfg, _ = graph("if c:\n    a = 1\nelse:\n    b = 2\ny = 3\nreturn y")
    assert edges(cfg) == sorted([("entry", "if"), ("if", "a"), ("if", "b"), ("a", "y"),
                                 ("b", "y"), ("y", "return"), ("return", "exit")])


def test_loop_has_a_back_edge_and_an_exit():
    cfg, body = graph("for i in r:\n    s = s + i\nreturn s")
    assert edges(cfg) == sorted([("entry", "loop"), ("loop", "s"), ("s", "loop"),
                                 ("loop", "return"), ("return", "exit")])
    header = cfg.node(body[0])
    assert header.defs == {"i"} and header.uses == {"r"}


def test_break_jumps_past_the_loop():
    cfg, _ = graph("while c:\n    a = 1\n    if d:\n        break\ny = 2\nreturn y")
    assert ("break", "y") in edges(cfg)
    assert ("break", "loop") not in edges(cfg)


def test_subscript_store_reads_its_base():
    cfg, body = graph("m[i] = v\nreturn m")
    node = cfg.node(body[0])
    assert node.defs == frozenset() and node.uses == {"m", "i", "v"}


# -- dataflow solver -------------------------------------------------------------------
def test_liveness_through_a_branch():
    cfg, body = graph("a = x * 2\nif c:\n    b = a\nelse:\n    b = x\nreturn b")
    live = live_names(cfg)
    assert live[cfg.node(body[0])] == {"a", "c", "x"}
    assert live[cfg.node(body[1].body[0])] == {"b"}


def test_liveness_around_a_loop_keeps_the_carried_value():
    cfg, body = graph("for i in r:\n    y = acc * 2\n    acc = x + i\nreturn y")
    live = live_names(cfg)
    assert "acc" in live[cfg.node(body[0].body[1])]


def test_possibly_and_definitely_defined():
    cfg, body = graph("if c:\n    a = 1\nelse:\n    b = 2\ny = 3\nreturn y")
    at_y = cfg.node(body[1])
    assert defined_names(cfg, ["x"])[at_y] >= {"a", "b"}
    assert not defined_names(cfg, ["x"], definitely=True)[at_y] & {"a", "b"}


def test_defined_in_every_branch_is_definitely_defined():
    cfg, body = graph("if c:\n    a = 1\nelse:\n    a = 2\ny = a\nreturn y")
    assert "a" in defined_names(cfg, ["x"], definitely=True)[cfg.node(body[1])]


def test_solver_reaching_a_fixpoint_in_a_loop():
    # "Has `x` been doubled?" flows around the back edge into the loop header.
    cfg, body = graph("for i in r:\n    x = x * 2\nreturn x")

    def transfer(node, fact):
        return fact | node.defs

    before, after = solve(cfg, transfer, forward=True)
    assert "x" in before[cfg.node(body[0])]
    assert after[cfg.node(body[0])] == {"x", "i"}


# -- activity --------------------------------------------------------------------------
def activity(source, wrt, params):
    cfg, body = graph(source, params)

    def differentiable(stmt):
        value = getattr(stmt, "value", None)
        return not (isinstance(value, gast.Call) and getattr(value.func, "id", "") == "len")

    return cfg, body, analyze_activity(cfg, wrt, differentiable)


def test_active_means_varied_and_useful():
    cfg, body, act = activity("n = len(x)\ny = x * w\nz = w * 2\nreturn y", ["x"], ["x", "w"])
    n, y, z = (cfg.node(s) for s in body[:3])
    assert not act.is_active_target(n, "n")       # an integer: not varied
    assert act.is_active_target(y, "y")
    assert not act.is_active_target(z, "z")       # does not depend on x, nor reach the output


def test_varied_but_useless_is_inactive():
    cfg, body, act = activity("u = x * 3\ny = w * 2\nreturn y", ["x"], ["x", "w"])
    assert not act.is_active_target(cfg.node(body[0]), "u")


def test_activity_flows_through_item_writes():
    cfg, body, act = activity("m[0] = x\ny = m * 2\nreturn y", ["x"], ["x", "m"])
    assert act.is_active_target(cfg.node(body[1]), "y")
    assert act.is_varied_operand(cfg.node(body[1]), "m")


def test_activity_around_a_loop():
    cfg, body, act = activity("h = c\nfor i in r:\n    h = h * w\nreturn h", ["w"],
                              ["w", "c", "r"])
    assert not act.is_active_target(cfg.node(body[0]), "h")   # before the loop: constant
    assert act.is_active_target(cfg.node(body[1].body[0]), "h")
    assert act.is_varied_operand(cfg.node(body[1].body[0]), "h")  # carried by the back edge
