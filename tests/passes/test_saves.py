"""optimize.saves: drop the pushes and pops of values the backward sweep never reads."""

from srcgrad.optimize.saves import prune_saves
from tests.passes.helpers import expect, mark_saves, show, statements


def run(forward, backward):
    fwd, bwd, kept = prune_saves(mark_saves(statements(forward)),
                                 mark_saves(statements(backward)))
    return show(fwd), show(bwd), kept


def test_unread_saves_are_dropped_and_read_ones_kept():
    fwd, bwd, kept = run("""
        for _ in range(3):
            stack.append(i)
            stack.append(t)
            t = t * w
            i = i + 1
    """, """
        for _ in range(3):
            t = stack.pop()
            i = stack.pop()
            dw += dt * t
            dt = dt * w
    """)
    assert fwd == expect("""
        for _ in range(3):
            stack.append(t)
            t = t * w
            i = i + 1
    """)
    assert bwd == expect("""
        for _ in range(3):
            t = stack.pop()
            dw += dt * t
            dt = dt * w
    """)
    assert kept == {"t"}


def test_a_save_needed_by_a_kept_save_is_kept():
    # `_sg.saved_item(y, i)` reads `i`, so restoring y keeps i's save too.
    fwd, bwd, kept = run("""
        for _ in range(2):
            stack.append(i)
            i = i + 1
            stack.append(y)
            y = y * 2
    """, """
        for _ in range(2):
            y = stack.pop()
            _sg.restore_item(y, i, 0)
            i = stack.pop()
    """)
    assert kept == {"y", "i"}
    assert "stack.append(i)" in fwd and "i = stack.pop()" in bwd


def test_everything_dropped_leaves_pass_in_an_emptied_body():
    fwd, bwd, kept = run("""
        for _ in range(2):
            stack.append(t)
    """, """
        for _ in range(2):
            t = stack.pop()
    """)
    assert fwd == expect("""
        for _ in range(2):
            pass
    """)
    assert bwd == fwd
    assert kept == set()
