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


def _with_temps(source, temps, params=("x",)):
    body = statements(source)
    namer = namer_for(body)
    namer.temps.update(temps)
    return show(rename_reassignments(body, list(params), namer))


def test_a_temporary_read_only_by_the_renamed_copy_is_computed_into_the_new_name():
    assert _with_temps("s = x * 2.0\n_add = s + x\ns = _add\nz = s * s", {"_add"}) == expect("""
        s = x * 2.0
        s_1 = s + x
        z = s_1 * s_1
    """)


def test_a_temporary_read_again_or_a_user_name_is_kept():
    assert _with_temps("s = x\n_add = s + x\ns = _add\nz = _add", {"_add"}) == expect("""
        s = x
        _add = s + x
        s_1 = _add
        z = _add
    """)
    assert _with_temps("s = x\nt = s + x\ns = t", set()) == expect("""
        s = x
        t = s + x
        s_1 = t
    """)


def test_a_temporary_also_assigned_in_a_block_is_kept():
    source = "s = x\n_c = s + x\ns = _c\nwhile c:\n    _c = x\n"
    assert _with_temps(source, {"_c"}).splitlines()[1:3] == ["_c = s + x", "s_1 = _c"]
