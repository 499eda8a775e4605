"""normalize.tuples: the items of tuple literals are forwarded to their reads."""

from srcgrad.normalize.tuples import forward_tuple_items
from tests.passes.helpers import expect, show, statements


def run(source):
    return show(forward_tuple_items(statements(source)))


def test_items_read_straight_after_the_tuple_are_forwarded():
    assert run("t = (a, b)\nx = t[0]\ny = t[1]") == expect("""
        t = (a, b)
        x = a
        y = b
    """)


def test_an_item_reassigned_since_stops_the_forwarding():
    assert run("t = (a, b)\na = t[1]\nb = t[0]") == expect("""
        t = (a, b)
        a = b
        b = t[0]
    """)


def test_lists_and_variable_indices_are_left_alone():
    assert run("t = [a, b]\nx = t[0]\nu = (a, b)\ny = u[i]") == expect("""
        t = [a, b]
        x = t[0]
        u = (a, b)
        y = u[i]
    """)


def test_forwarding_does_not_cross_into_blocks():
    assert run("t = (a, b)\nif c:\n    a = 2.0\nx = t[0]") == expect("""
        t = (a, b)
        if c:
            a = 2.0
        x = t[0]
    """)


def test_an_item_forwarded_to_its_own_name_drops_the_assignment():
    # `b, t = b, s.T` keeps b: forwarding would give `b = b`, a target read by its value.
    assert run("""
        _tuple = (b, _T)
        b = _tuple[0]
        t = _tuple[1]
    """) == expect("""
        _tuple = (b, _T)
        t = _T
    """)
