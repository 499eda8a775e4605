"""Templates (``syntax.quote``): a template compiled after repeated use builds the same
tree as the walk that copies it before, with names substituted the same way."""

import gast

from srcgrad import syntax
from srcgrad.syntax import templates


def _dump(tree):
    trees = tree if isinstance(tree, list) else [tree]
    return [(gast.dump(t, include_attributes=True), [list(n.__dict__) for n in gast.walk(t)])
            for t in trees]


def test_a_compiled_template_builds_what_the_walk_builds():
    item = gast.BinOp(left=syntax.name("a"), op=gast.Mult(), right=syntax.const(2.0))
    cases = [("_sg.unbroadcast(g * w, x)", "expr", {"g": "d_mul", "w": item, "x": "x"}),
             ("d = d + c", "stmts", {"d": "dx", "c": item}),
             ("x = 1.5 * y\nif a:\n    z = -x\nelse:\n    z = [x, 'k', None]", "stmts",
              {"y": syntax.name("q"), "a": "flag"})]
    for source, mode, subs in cases:
        tree = templates._parse_template(source, mode)
        walked = templates._instantiate(tree, subs) if mode == "expr" else [
            templates._instantiate(stmt, subs) for stmt in tree]
        built = templates._compiled_builder(tree)(subs)
        assert _dump(built) == _dump(walked)
        assert built is not walked and _dump(tree) != _dump(built)


def test_copies_share_no_node_with_the_template_or_each_other():
    source = "stack.append(_sg.pair(v, w))"
    for _ in range(templates._USES_BEFORE_COMPILING + 1):   # (compiled by the last use)
        first, second = syntax.quote(source, stack="s", v="p", w="q")[0], \
            syntax.quote(source, stack="s", v="p", w="q")[0]
    assert templates._template(source, "stmts").build is not None
    shared = {id(n) for n in gast.walk(first)} & {id(n) for n in gast.walk(second)}
    contexts = {id(n) for n in gast.walk(first) if isinstance(n, gast.expr_context)}
    assert shared <= contexts   # (contexts hold nothing and are shared, as by clone)
    assert gast.dump(first.value) == gast.dump(syntax.quote_expr("s.append(_sg.pair(p, q))"))
