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


def _mark_item_saves(forward, backward):
    """Mark ``stack.append(_sg.saved_item(x, i))`` and its ``_sg.restore_item`` as saves
    of ``x``, as the reverse mode does for ``x[i] = v``."""
    fwd, bwd = statements(forward), statements(backward)
    for stmt in fwd + bwd:
        call = getattr(stmt, "value", None)
        args = getattr(call, "args", [])
        if args and getattr(args[0], "func", None) is not None:
            stmt.saved = args[0].args[0].id      # stack.append(_sg.saved_item(x, i))
        elif len(args) == 3:
            stmt.saved = args[0].id              # _sg.restore_item(x, i, stack.pop())
    return fwd, bwd


def test_a_write_into_an_array_keeps_its_save_when_a_view_of_it_is_read_afterwards():
    # `row` is a view of `m`: the backward sweep reads it after undoing `m[:, 0] = v`,
    # so the undo must happen (`row` would show the overwritten values otherwise).
    fwd, bwd = _mark_item_saves("""
        row = m[:, 0]
        p = row * u
        stack.append(_sg.saved_item(m, (slice(None), 0)))
        m[:, 0] = v
    """, """
        _sg.restore_item(m, (slice(None), 0), stack.pop())
        du = dp * row
    """)
    fwd, bwd, kept = prune_saves(fwd, bwd)
    assert kept == {"m"}
    assert "_sg.restore_item(m" in show(bwd)


def test_a_write_into_an_array_drops_its_save_when_no_sharer_is_read_afterwards():
    fwd, bwd = _mark_item_saves("""
        p = np.sin(m) * u
        stack.append(_sg.saved_item(m, (slice(None), 0)))
        m[:, 0] = v
    """, """
        _sg.restore_item(m, (slice(None), 0), stack.pop())
        du = dp * p
    """)
    fwd, bwd, kept = prune_saves(fwd, bwd)
    assert kept == set()
    assert "restore_item" not in show(bwd) and "saved_item" not in show(fwd)


def test_storage_groups_follow_views_containers_and_user_calls():
    from srcgrad.optimize.saves import storage_groups

    groups = storage_groups(statements("""
        a = m.T
        b = a[0]
        t = (q, r)
        s = t[1]
        h = helper(w)
        for row in z:
            pass
        fresh = np.sin(m)
    """))
    assert groups["m"] == {"m", "a", "b"}
    assert groups["t"] == {"t", "q", "r", "s"}
    assert groups["w"] == {"w", "h"}
    assert groups["row"] == {"row", "z"}
    assert "fresh" not in groups
