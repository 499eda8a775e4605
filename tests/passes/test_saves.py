"""optimize.saves: drop the pushes and pops of values the backward sweep never reads."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.optimize.saves import prune_saves
from tests.conftest import numeric_grad
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


# -- a callee's saved values may be its arguments themselves -----------------------------
# ``y, y_saved = helper_forward(z)`` then ``z[:] = ...``: the callee's backward reads ``z``
# through ``y_saved``, so the write's save of ``z`` must be kept and restored (fuzz seed
# 8000789: the gradient came out as 4 A^7 where 4 A^3 is right).


def _called_helper(p0, p1, p2, scale=0.5):   # a default: compiled as its own unit
    return p0 ** 2


def _rebuilt_in_place(A, M):
    z = A
    z[:] = _called_helper(_called_helper(z, A.sum(), M), 0.74, M)
    return np.sum(A)


def _scaled_in_place(A, M):
    z = A * 1.0
    y = _called_helper(z, 0.0, M)
    z *= 3.0
    return np.sum(y * z)


def _through_a_value(A, fn):
    z = A * 1.0
    y = fn(z, 0.0, None)   # resolved when it runs: _sg.dynamic_forward
    z[1:] = 2.0
    return np.sum(y) + np.sum(z)


@pytest.mark.parametrize("f, extra", [(_rebuilt_in_place, np.eye(3)),
                                      (_scaled_in_place, np.eye(3)),
                                      (_through_a_value, _called_helper)],
                         ids=["nested-calls", "augmented-write", "dynamic-call"])
def test_a_write_after_a_call_keeps_what_the_callee_saved(f, extra):
    A = np.array([0.3, -0.7, 1.1])

    def primal(a):
        return f(a.copy(), extra)

    expected = numeric_grad(primal, [A], 0)
    got = sg.grad(f)(A.copy(), extra)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)
