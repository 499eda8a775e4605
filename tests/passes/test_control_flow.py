"""normalize.control_flow: return, break and continue become flags and guarded blocks."""

from srcgrad.normalize.control_flow import to_single_exit
from tests.passes.helpers import expect, namer_for, show, statements


def run(source):
    body = statements(source)
    return show(to_single_exit(body, namer_for(body)))


def test_single_final_return_is_left_alone():
    source = """
        y = x * 2
        return y
    """
    assert run(source) == expect(source)


def test_missing_return_returns_none():
    assert run("y = x * 2") == expect("""
        y = x * 2
        return None
    """)


def test_early_return_takes_the_rest_as_else():
    assert run("""
        if x > 0:
            return x
        y = x * 2
        return y
    """) == expect("""
        returned = False
        if x > 0:
            retval = x
            returned = True
        else:
            y = x * 2
            retval = y
            returned = True
        return retval
    """)


def test_return_inside_a_loop():
    assert run("""
        for x in xs:
            if x > limit:
                return x
            total = total + x
        return total
    """) == expect("""
        returned = False
        stop_loop = False
        for x in xs:
            skip_rest = False
            if x > limit:
                retval = x
                returned = True
                stop_loop = True
                skip_rest = True
            if not skip_rest:
                total = total + x
            if stop_loop:
                break
        if not returned:
            retval = total
            returned = True
        return retval
    """)


def test_break_leaves_one_trailing_break():
    assert run("""
        for i in range(10):
            acc = acc + i
            if acc > 5:
                break
            acc = acc * 2
        return acc
    """) == expect("""
        returned = False
        stop_loop = False
        for i in range(10):
            skip_rest = False
            acc = acc + i
            if acc > 5:
                stop_loop = True
                skip_rest = True
            if not skip_rest:
                acc = acc * 2
            if stop_loop:
                break
        retval = acc
        returned = True
        return retval
    """)


def test_continue_skips_the_rest_of_the_body():
    assert run("""
        while x > 1:
            x = x / 2
            if x < 3:
                continue
            y = y + x
        return y
    """) == expect("""
        returned = False
        while x > 1:
            skip_rest = False
            x = x / 2
            if x < 3:
                skip_rest = True
            if not skip_rest:
                y = y + x
        retval = y
        returned = True
        return retval
    """)


def test_loop_else_runs_unless_the_loop_broke():
    assert run("""
        for i in r:
            if i > 2:
                break
        else:
            y = 0
        return y
    """) == expect("""
        returned = False
        stop_loop = False
        for i in r:
            skip_rest = False
            if i > 2:
                stop_loop = True
                skip_rest = True
            if stop_loop:
                break
        if not stop_loop:
            y = 0
        retval = y
        returned = True
        return retval
    """)


def test_break_in_an_inner_loop_stops_only_that_loop():
    out = run("""
        for i in r:
            for j in s:
                if j > i:
                    break
            t = t + i
        return t
    """)
    assert out == expect("""
        returned = False
        for i in r:
            stop_loop_1 = False
            for j in s:
                skip_rest_1 = False
                if j > i:
                    stop_loop_1 = True
                    skip_rest_1 = True
                if stop_loop_1:
                    break
            t = t + i
        retval = t
        returned = True
        return retval
    """)
