"""Sequences of list mutations (append, extend, insert, pop, pop(i), a bare pop, item
writes, del of an item or a slice, reads by np.stack between them, mutations in a loop),
and of dict deletions (del d[key], a bare d.pop(key)), generated, in reverse mode,
forward mode and hvp against finite differences. The backward sweep undoes each resize
on the list itself as well as on its cotangent, so an item restored further back
finds its place (an item written, then the list popped, raised IndexError in
``restore_item``) and a read by ``np.stack`` sees the list as it was.

CI runs a fixed sample of the pairs; ``--list-mutations-full`` runs them all."""

import itertools

import pytest

from tests.calls.oracle import check_modes, load_source

OPS = {   # each keeps ``xs`` holding at least two items
    "append": "xs.append(xs[0] * x)",
    "extend": "xs.extend([x * x, np.sin(x)])",
    "insert": "xs.insert(1, np.cos(x) * xs[0])",
    "insert_end": "xs.insert(-1, x * x)\n    xs.insert(10, np.sin(x))\n    del xs[-1]",
    "pop": "v = v + xs.pop() * x\n    xs.append(x * 0.5)",
    "pop0": "v = v + np.sin(xs.pop(0))\n    xs.append(x + 1.0)",
    "bare_pop": "xs.append(x * x)\n    xs.pop()",
    "setitem": "xs[1] = xs[1] * x",
    "setlast": "xs[-1] = np.tanh(xs[-1]) + xs[0]",
    "delete": "xs.append(x * 3.0)\n    del xs[0]",
    "stacked": "v = v + np.sum(np.stack(xs) ** 2) * x\n    xs.append(np.sin(x))",
    "loop": "for k in range(2):\n        xs.append(xs[-1] * x)\n        v = v + xs.pop(0)",
    "del_slice": "xs.extend([x * x, x + 1.0])\n    del xs[1:3]",
    "del_step": "xs.append(np.cos(x))\n    xs.append(x)\n    del xs[::2]",
    "del_tail": "xs.append(x * x)\n    del xs[-1:]",
}

FINALS = {"pop": "v = v + xs.pop() * x", "none": "pass",
          "write_pop": "xs[1] = xs[1] * x\n    v = v + xs.pop()"}


INITS = {"varied": "[x, 2.0 * x]", "constant": "[1.0, 2.0]"}   # the list before the ops


def program(ops, final, init):
    body = "\n    ".join(OPS[op] for op in ops)
    return (f"import numpy as np\n\n\ndef f(x):\n    xs = {INITS[init]}\n    v = x * 0.1\n"
            f"    {body}\n    {final}\n    return v + xs[0] * xs[-1] + len(xs)\n")


FULL = pytest.mark.list_mutations_full
CASES = [pytest.param(ops, final, init, id="-".join(ops + (final, init)),
                      marks=() if i % 37 == 0 else FULL)   # a fixed sample in CI
         for i, (ops, final, init) in enumerate(itertools.product(
             itertools.product(sorted(OPS), repeat=2), sorted(FINALS), sorted(INITS)))]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("list_mutations")


@pytest.mark.parametrize("ops,final,init", CASES)
def test_list_mutation_sequence(folder, ops, final, init):
    module = load_source(program(ops, FINALS[final], init), folder,
                         f"lst_{'_'.join(ops)}_{final}_{init}")
    check_modes(module.f, 0.7)


DICT_OPS = {   # on d = {'a': ..., 'b': ..., 'k': ...}; 'a' and 'b' stay
    "del": "del d['k']",
    "del_new": "d['z'] = d['a'] * x\n    v = v + d['z']\n    del d['z']",
    "bare_pop": "d.pop('k')",
    "pop": "v = v + d.pop('k') * x",
    "del_loop": ("for key in ['k', 'z']:\n        d[key + '2'] = d['a'] * x\n"
                 "        del d[key + '2']"),
    "write": "d['a'] = d['a'] * np.sin(x)",
}


@pytest.mark.parametrize("first,second", [
    (a, b) for a, b in itertools.product(sorted(DICT_OPS), repeat=2)
    if not (a in ("del", "bare_pop", "pop") and b in ("del", "bare_pop", "pop"))])
def test_dict_deletion_sequence(folder, first, second):
    source = ("import numpy as np\n\n\ndef f(x):\n"
              "    d = {'a': x * 2.0, 'k': np.cos(x) * x, 'b': x * x}\n    v = x * 0.1\n"
              f"    {DICT_OPS[first]}\n    {DICT_OPS[second]}\n"
              "    return v + d['a'] * d['b'] + sum(d.values()) + len(d)\n")
    check_modes(load_source(source, folder, f"dict_{first}_{second}").f, 0.7)
