"""normalize.rename: names reassigned in straight-line code get fresh names."""

from srcgrad.normalize.rename import rename_reassignments
from tests.passes.helpers import expect, namer_for, show, statements


def run(source, params=("x",)):
    body = statements(source)
    return show(rename_reassignments(body, list(params), namer_for(body)))


def test_each_top_level_reassignment_gets_a_fresh_name():
    assert run("y = x * 2.0\ny = y * x\nz = y + 1.0\ny = z") == expect("""
        y = x * 2.0
        y_1 = y * x
        z = y_1 + 1.0
        y_2 = z
    """)


def test_a_reassigned_parameter_is_renamed_from_its_first_assignment():
    assert run("x = x * 2.0\nz = x") == expect("""
        x_1 = x * 2.0
        z = x_1
    """)


def test_a_name_also_assigned_inside_a_block_is_left_alone():
    assert run("y = x\nif c:\n    y = 2.0\ny = y * x") == expect("""
        y = x
        if c:
            y = 2.0
        y = y * x
    """)


def test_reads_inside_blocks_see_the_current_name():
    assert run("y = x\ny = y * 2.0\nif c:\n    z = y") == expect("""
        y = x
        y_1 = y * 2.0
        if c:
            z = y_1
    """)
