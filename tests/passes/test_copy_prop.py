"""optimize.copy_prop: fold ``a = b`` into the one statement that reads ``a``."""

from srcgrad.optimize.copy_prop import propagate_copies
from tests.passes.helpers import expect, show, statements


def run(source):
    body, changed = propagate_copies(statements(source))
    return show(body), changed


def test_copy_folds_into_its_single_reader():
    out, changed = run("""
        d_mul = dy
        dx = d_mul * np.cos(x)
    """)
    assert changed
    assert out == expect("""
        dx = dy * np.cos(x)
    """)


def test_copy_read_twice_stays():
    source = """
        d_mul = dy
        dx = d_mul * w
        dw = d_mul * x
    """
    out, changed = run(source)
    assert not changed
    assert out == expect(source)


def test_source_reassigned_before_the_read_blocks_folding():
    source = """
        a = b
        b = 2 * c
        y = a + 1
    """
    out, changed = run(source)
    assert not changed
    assert out == expect(source)


def test_reader_that_rebinds_the_copy_keeps_its_target():
    # The read of `dx` is folded; the store to `dx` must stay a store to `dx`.
    out, changed = run("""
        dx = d_add
        dx = dx + _sg.unbroadcast(g * x, x)
        dx += d_sin * np.cos(x)
    """)
    assert changed
    assert out == expect("""
        dx = d_add + _sg.unbroadcast(g * x, x)
        dx += d_sin * np.cos(x)
    """)


def test_no_folding_into_a_nested_block():
    source = """
        d_add = dacc
        if c:
            dx = d_add * 2
    """
    out, changed = run(source)
    assert not changed
    assert out == expect(source)


def test_folding_inside_a_loop_body():
    out, changed = run("""
        for i in range(3):
            d_add = dacc
            dacc = d_add * w
    """)
    assert changed
    assert out == expect("""
        for i in range(3):
            dacc = dacc * w
    """)


def test_no_folding_into_augmented_assignment():
    source = """
        a = b
        a += 1
        y = a
    """
    out, changed = run(source)
    assert not changed
    assert out == expect(source)
