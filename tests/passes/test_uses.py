"""optimize.uses: one walk of a statement answers what each optimizer pass asks of it,
as the walks it replaces did (``syntax.loaded_names``, ``names_in(..., Store)``,
``analysis.cfg.statement_defs_uses``)."""

from collections import Counter

from srcgrad import syntax
from srcgrad.analysis.cfg import statement_defs_uses
from srcgrad.optimize.copy_prop import propagate_copies
from srcgrad.optimize.uses import UseCache, uses_of
from srcgrad.syntax import gast
from tests.passes.helpers import show, statements

SNIPPET = """
    d_x = _sg.unbroadcast(g * k, x)
    dk = _sg.add_cotangents(dk, _sg.unbroadcast(d * s, k))
    a, b = pair
    w[i] = v + w[j]
    t += u * t
    del r
    f = lambda z, q=e: z * y
    n = sum(h * m for h in hs)
    _sg.zeros_like(p, *rest)
    if c:
        out = _sg.sum_adjoint(g, p, 0, False)
    for i in range(n):
        acc = acc + i
"""


def test_a_shape_argument_is_told_from_other_reads():
    uses = uses_of(statements("d_x = _sg.unbroadcast(g * x, x)")[0])
    assert uses.shape_reads == ["x"]
    assert sorted(uses.other_reads) == ["_sg", "g", "x"]
    assert uses.stores == ["d_x"]


def test_a_spread_argument_list_has_no_shape_argument():
    uses = uses_of(statements("_sg.zeros_like(p, *rest)")[0])
    assert uses.shape_reads == []
    assert sorted(uses.other_reads) == ["_sg", "p", "rest"]


def test_reads_and_stores_match_the_walks_they_replace():
    for stmt in statements(SNIPPET):
        uses = uses_of(stmt)
        assert Counter(uses.reads) == Counter(syntax.loaded_names(stmt)), show([stmt])
        assert uses.stores == syntax.names_in(stmt, gast.Store), show([stmt])
        binds = [n.id for n in syntax.walk(stmt) if isinstance(n, gast.Name)
                 and not isinstance(n.ctx, gast.Load)]
        assert Counter(uses.binds) == Counter(binds), show([stmt])


def test_deleted_names_and_lambda_parameters_are_binds_but_not_stores():
    deleted, lam = statements("del r\nf = lambda z: z * y")
    assert uses_of(deleted).stores == [] and uses_of(deleted).other_binds == ["r"]
    assert uses_of(lam).stores == ["f"] and uses_of(lam).other_binds == ["z"]


def test_names_read_inside_a_lambda_or_generator_are_deferred():
    lam, gen = statements("f = lambda z, q=e: z * y\nn = sum(h * m for h in hs)")
    assert sorted(uses_of(lam).deferred) == ["e", "y", "z"]
    assert sorted(uses_of(gen).deferred) == ["h", "hs", "m"]


def test_cached_defs_and_uses_match_the_graph_builder():
    cache = UseCache()
    for stmt in statements(SNIPPET):
        defs, uses = cache.defs_uses(stmt)
        expected_defs, expected_uses = statement_defs_uses(stmt)
        assert Counter(defs) == Counter(expected_defs), show([stmt])
        assert Counter(uses) == Counter(expected_uses), show([stmt])


def test_a_statement_rewritten_by_a_pass_is_walked_again():
    body = statements("""
        a = b
        y = a + 1
        z = y * 2
    """)
    cache = UseCache()
    assert sorted(cache.reads(body)) == ["a", "b", "y"]
    body, changed = propagate_copies(body, uses=cache)
    assert changed
    assert sorted(cache.reads(body)) == ["b", "y"]   # y = b + 1 now reads b, not a


def test_a_compound_statement_is_not_kept():
    loop, = statements("""
        for i in range(n):
            acc = acc + i
    """)
    cache = UseCache()
    assert "acc" in cache.of(loop).reads
    loop.body = [gast.Pass()]
    assert "acc" not in cache.of(loop).reads


SCOPES = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef,
          gast.GeneratorExp, gast.ListComp, gast.SetComp, gast.DictComp)


def test_scoped_reads_and_helpers_match_a_walk():
    """``scoped``: the names read inside any scope of its own (comprehensions and classes
    too), as a walk of each such node finds them; ``helpers``: each ``_sg.h(...)``."""
    extra = statements("""
        v = [a * r for r in rs]
        w = {k: b for k in ks}
        class C:
            u = c
    """)
    for stmt in statements(SNIPPET) + extra:
        found = uses_of(stmt)
        scoped = [name for node in syntax.walk(stmt) if isinstance(node, SCOPES)
                  for name in syntax.loaded_names(node)]
        assert Counter(found.scoped) == Counter(scoped), show([stmt])
        calls = [node.func.attr for node in syntax.walk(stmt)
                 if isinstance(node, gast.Call) and syntax.dotted_name(node.func) is not None
                 and syntax.dotted_name(node.func).split(".")[0] == "_sg"
                 and syntax.dotted_name(node.func).count(".") == 1]
        assert Counter(found.helpers) == Counter(calls), show([stmt])


def test_a_fused_product_keeps_the_statement_s_uses():
    """fuse_product_reductions rewrites in place and does not tell the cache: every name
    is still read, in the same role, and the helper is the fused one."""
    from srcgrad.optimize.fused_products import fuse_product_reductions

    body = statements("dk = _sg.add_cotangents(dk, _sg.unbroadcast(d * s, k))")
    cache = UseCache()
    before = cache.of(body[0])
    fuse_product_reductions(body, cache)
    assert show(body).strip() == "dk = _sg.add_cotangents(dk, _sg.unbroadcast_product(d, s, k))"
    fresh = uses_of(body[0])
    assert cache.of(body[0]) is before
    assert Counter(before.shape_reads) == Counter(fresh.shape_reads) == Counter(["k"])
    assert Counter(before.other_reads) == Counter(fresh.other_reads)
    assert sorted(before.helpers) == sorted(fresh.helpers) \
        == ["add_cotangents", "unbroadcast_product"]
