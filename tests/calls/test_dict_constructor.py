"""The builtin ``dict(...)`` called on values being differentiated: keywords, a dict
display, pairs written as a list or tuple of 2-tuples, and those mixed with keywords
(through ``dict`` or a global alias of it),
read by key, iterated or returned through a helper, in functions with and without any
other subscript (the rewrite once ran only where a subscript was); a key given twice
holds the value given last, and only that value gets a cotangent (the earlier one got it
too: a wrong number). Every form against
central differences in reverse, forward and hvp; a form srcgrad cannot prove a record (a
mapping or an iterable passed by name) is a MissingRuleError naming ``dict``."""

import itertools

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.oracle import check_modes, load_source

# How the dict is built from two values u and w (w depends on x).
BUILDS = {
    "keywords": "dict(a=u, b=w)",
    "display": "dict({'a': u, 'b': w})",
    "pairs_list": "dict([('a', u), ('b', w)])",
    "pairs_tuple": "dict((('a', u), ('b', w)))",
    "pairs_and_keyword": "dict([('a', u)], b=w)",
    "display_and_keyword": "dict({'a': u}, b=w)",
    "keyword_overrides_pair": "dict([('a', u * 0.0), ('b', w)], a=u)",
    "later_pair_wins": "dict([('a', w), ('b', w), ('a', u)])",
    "display_key_twice": "{'a': w, 'b': w, 'a': u}",
    "alias_of_dict": "ag_dict([('a', u)], b=w)",
}

# How the result is read: each returns a scalar of x.
READS = {
    "by_key": "    return np.sum(d['a'] * d['b'])\n",
    "values": "    return np.sum(sum(v * v for v in d.values()))\n",
    "no_subscript": "    return np.sum(np.tanh(sum(d.values())))\n",
    "helper": "    return np.sum(_combine(d))\n",
}

HEADER = """from builtins import dict as ag_dict

import numpy as np


def _combine(d):
    return d['a'] * np.sin(d['b'])

"""


def _program(build, read):
    return (HEADER + "def f(x):\n    u = np.sin(x) * 1.5\n    w = x * x + 0.25\n"
            f"    d = {BUILDS[build]}\n" + READS[read])


CASES = list(itertools.product(BUILDS, READS))


@pytest.mark.parametrize("build,read", CASES, ids=[f"{b}-{r}" for b, r in CASES])
def test_dict_constructor_forms(build, read, tmp_path):
    f = load_source(_program(build, read), tmp_path, f"dict_{build}_{read}").f
    check_modes(f, np.array([0.3, -0.7, 1.1]))
    check_modes(f, 0.45)


def test_refused_forms_name_dict(tmp_path):
    text = HEADER + "def f(x):\n    pairs = [('a', x)]\n    return dict(pairs)['a'] ** 2\n"
    f = load_source(text, tmp_path, "dict_named_pairs").f
    with pytest.raises(sg.MissingRuleError, match="dict"):
        sg.grad(f)(0.5)


def test_the_check_fails_on_a_dropped_entry(tmp_path):
    """Planted: a derivative that drops ``b``'s dependence on x (as a misread constructor
    would: here through ``stop_gradient``, the identity in the primal) fails the check."""
    text = (HEADER + "import srcgrad as sg\n\n\ndef f(x):\n    u = np.sin(x) * 1.5\n"
            "    w = sg.stop_gradient(x * x + 0.25)\n    d = dict([('a', u), ('b', w)])\n"
            + READS["by_key"])
    dropped = load_source(text, tmp_path, "dict_dropped").f
    with pytest.raises(AssertionError):
        check_modes(dropped, np.array([0.3, -0.7, 1.1]), modes=("grad",))
