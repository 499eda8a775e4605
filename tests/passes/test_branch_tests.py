"""normalize.branch_tests: an ``if`` whose branches reassign its test branches on a copy."""

from srcgrad.normalize.branch_tests import freeze_branch_tests
from tests.passes.helpers import expect, namer_for, show, statements


def run(source):
    body = statements(source)
    return show(freeze_branch_tests(body, namer_for(body)))


def test_a_branch_that_reassigns_its_test_gets_a_copy():
    assert run("""
        _and = a > 0
        if _and:
            _and = b > 0
    """) == expect("""
        _and = a > 0
        _test = _and
        if _test:
            _and = b > 0
    """)


def test_a_reassignment_in_the_else_branch_or_a_nested_block_counts_too():
    assert run("""
        for i in range(3):
            if flag:
                x = 1
            else:
                for j in range(2):
                    flag = j > i
    """) == expect("""
        for i in range(3):
            _test = flag
            if _test:
                x = 1
            else:
                for j in range(2):
                    flag = j > i
    """)


def test_a_test_no_branch_reassigns_is_left_alone():
    source = """
        if c:
            y = x * 2
        else:
            y = x
    """
    assert run(source) == expect(source)
