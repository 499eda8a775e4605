"""optimize.dce: drop side-effect-free assignments whose values are never read."""

from srcgrad.optimize import optimize_sweeps
from srcgrad.optimize.dce import eliminate_dead_code
from tests.passes.helpers import expect, show, statements


def run(source, live_out):
    body, changed = eliminate_dead_code(statements(source), set(live_out))
    return show(body), changed


def test_unread_pure_assignment_is_dropped():
    out, changed = run("""
        a = np.sin(x)
        unused = a * 2
        y = a + 1
    """, {"y"})
    assert changed
    assert out == expect("""
        a = np.sin(x)
        y = a + 1
    """)


def test_calls_of_unknown_functions_are_kept():
    source = """
        b = f(x)
        y = x * 3
    """
    out, changed = run(source, {"y"})
    assert not changed
    assert out == expect(source)


def test_pops_and_in_place_helpers_are_kept():
    source = """
        t = stack.pop()
        dx = _sg.add_at(dx, 0, g)
        r = np.random.normal()
        y = x
    """
    out, changed = run(source, {"y"})
    assert not changed
    assert out == expect(source)


def test_one_pass_removes_what_fed_only_dead_code_too():
    out, changed = run("""
        a = np.sin(x)
        b = a + x
        c = b * 2
        y = x * 3
    """, {"y"})
    assert changed
    assert out == expect("""
        y = x * 3
    """)


def test_a_value_read_by_a_kept_statement_stays_when_its_other_reader_goes():
    out, _ = run("""
        a = np.sin(x)
        c = a * 2
        y = a * 3
    """, {"y"})
    assert out == expect("""
        a = np.sin(x)
        y = a * 3
    """)


def test_value_read_by_a_later_iteration_is_live():
    source = """
        for i in range(3):
            y = acc * 2
            acc = x + i
    """
    out, changed = run(source, {"y"})
    assert not changed
    assert out == expect(source)


def test_a_branch_left_empty_disappears():
    out, _ = run("""
        if c:
            t = x * 2
        y = x
    """, {"y"})
    assert out == expect("""
        y = x
    """)


def test_a_dead_then_branch_with_a_live_else_becomes_pass():
    out, _ = run("""
        if c:
            t = x * 2
        else:
            y = x * 3
        z = y
    """, {"z"})
    assert out == expect("""
        if c:
            pass
        else:
            y = x * 3
        z = y
    """)


def test_optimize_sweeps_reaches_a_fixpoint():
    forward = statements("""
        a = np.sin(x)
        b = a * 2
        y = np.cos(x)
    """)
    backward = statements("""
        d_t = dy
        d_u = d_t * 3
        dx = dy * np.cos(x)
    """)
    fwd, bwd, saved = optimize_sweeps(forward, backward, {"dx"}, ["y"])
    assert show(fwd) == expect("""
        y = np.cos(x)
    """)
    assert show(bwd) == expect("""
        dx = dy * np.cos(x)
    """)
    assert saved == set()
