"""``syntax.to_gast`` builds the tree ``gast.ast_to_gast`` builds: the same nodes, fields
(in the same order), values and positions."""

import ast
import pathlib

import gast

import srcgrad
from srcgrad import syntax


def _signature(tree):
    return [(type(node).__name__, list(node.__dict__),
             [v if not isinstance(v, (ast.AST, list)) else type(v).__name__
              for v in node.__dict__.values()]) for node in gast.walk(tree)]


def test_to_gast_gives_what_gast_gives_for_the_package_sources():
    sources = sorted(pathlib.Path(srcgrad.__file__).parent.rglob("*.py"))
    sources.append(pathlib.Path(ast.__file__))
    assert len(sources) > 50
    for path in sources:
        tree = ast.parse(path.read_text())
        expected, got = gast.ast_to_gast(tree), syntax.to_gast(tree)
        assert gast.dump(got, include_attributes=True) == \
            gast.dump(expected, include_attributes=True), path
        assert _signature(got) == _signature(expected), path
