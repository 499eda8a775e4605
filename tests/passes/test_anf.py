"""normalize.anf: one operation per assignment, every operand a name or a literal."""

from srcgrad.normalize.anf import to_anf
from tests.passes.helpers import expect, namer_for, show, statements


def run(source):
    body = statements(source)
    return show(to_anf(body, namer_for(body)))


def test_nested_expression_gets_temporaries_named_by_operation():
    assert run("y = np.sin(x * w + b) ** 2") == expect("""
        _mul = x * w
        _add = _mul + b
        _sin = np.sin(_add)
        y = _sin ** 2
    """)


def test_target_never_appears_in_its_own_right_hand_side():
    assert run("x = x * w") == expect("""
        _mul = x * w
        x = _mul
    """)


def test_ternary_becomes_an_if_assigning_the_target():
    assert run("y = np.tanh(h * w) if h > 0 else -h") == expect("""
        _cond = h > 0
        if _cond:
            _mul = h * w
            y = np.tanh(_mul)
        else:
            y = -h
    """)


def test_ternary_reading_its_target_uses_a_temporary():
    assert run("y = y * 2 if c else y") == expect("""
        if c:
            _choice = y * 2
        else:
            _choice = y
        y = _choice
    """)


def test_negative_literals_are_operands():
    assert run("y = x * -2.0 + c") == expect("""
        _mul = x * -2.0
        y = _mul + c
    """)


def test_while_condition_is_recomputed_at_the_end_of_the_body():
    assert run("while np.abs(x) > 1e-3:\n    x = x / 2") == expect("""
        _abs = np.abs(x)
        _cond = _abs > 0.001
        while _cond:
            _div = x / 2
            x = _div
            _abs = np.abs(x)
            _cond = _abs > 0.001
    """)


def test_chained_comparison_short_circuits():
    assert run("z = a < b < c") == expect("""
        _and = a < b
        if _and:
            _and = b < c
        z = _and
    """)


def test_or_keeps_short_circuit_semantics():
    assert run("t = p or q") == expect("""
        t = p
        _not = not t
        if _not:
            t = q
    """)


def test_call_arguments_and_keywords_are_atoms():
    assert run("s = f(g(x), k=h(y))[0]") == expect("""
        _g = g(x)
        _h = h(y)
        _f = f(_g, k=_h)
        s = _f[0]
    """)


def test_subscript_store_has_atom_index_and_value():
    assert run("m[i + 1, :n - 1] = v * 2") == expect("""
        _add = i + 1
        _sub = n - 1
        _mul = v * 2
        m[_add, :_sub] = _mul
    """)


def test_for_over_range_keeps_the_range_call_visible():
    assert run("for i in range(n - 1):\n    acc = acc + x[i]") == expect("""
        _sub = n - 1
        for i in range(_sub):
            _x_item = x[i]
            _add = acc + _x_item
            acc = _add
    """)


def test_for_over_an_expression_iterates_a_name():
    assert run("for a, b in zip(xs, ys):\n    t = t + a * b") == expect("""
        _zip = zip(xs, ys)
        for _item in _zip:
            _value = _item
            a = _value[0]
            b = _value[1]
            _mul = a * b
            _add = t + _mul
            t = _add
    """)


def test_return_of_an_expression_returns_a_name():
    assert run("return x * y + 1") == expect("""
        _mul = x * y
        _add = _mul + 1
        return _add
    """)


def test_unary_plus_disappears_and_minus_stays():
    assert run("y = +x\nz = -x") == expect("""
        y = x
        z = -x
    """)


def test_attributes_become_temporaries():
    assert run("y = np.pi * x.T") == expect("""
        _pi = np.pi
        _T = x.T
        y = _pi * _T
    """)
