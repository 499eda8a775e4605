"""Sets of names as bit vectors: Python ints over a per-graph index of names.

The dataflow problems here (definedness, liveness, activity, scalars) have one fact per
CFG node, a set of names. As frozensets, every transfer copies its whole fact, so a long
function costs quadratic time and memory; as ints, ``|``, ``&`` and ``==`` cost a few
machine words per 64 names.

``NameIndex`` numbers names (growing on demand); ``NameSet`` presents an int as a
read-only set of names, so callers keep writing ``name in facts[node]``.
"""

from __future__ import annotations

from collections.abc import Set


class NameIndex:
    """Gives each name one bit; new names get the next bit."""

    __slots__ = ("bit", "names")

    def __init__(self, names=()):
        self.bit = {}
        self.names = []
        for name in names:
            self.bit_of(name)

    def bit_of(self, name):
        found = self.bit.get(name)
        if found is None:
            found = self.bit[name] = 1 << len(self.names)
            self.names.append(name)
        return found

    def bits(self, names):
        """The bit vector of ``names`` (an iterable of strings)."""
        result = 0
        for name in names:
            result |= self.bit_of(name)
        return result

    def has(self, bits, name):
        found = self.bit.get(name)
        return found is not None and bool(bits & found)

    def decode(self, bits):
        """The names whose bits are set, in index order."""
        names = []
        while bits:
            low = bits & -bits
            names.append(self.names[low.bit_length() - 1])
            bits ^= low
        return names


class NameSet(Set):
    """A read-only set of names backed by a bit vector (compares equal to a set)."""

    __slots__ = ("index", "bits")

    def __init__(self, index, bits):
        self.index, self.bits = index, bits

    def __contains__(self, name):
        return self.index.has(self.bits, name)

    def __iter__(self):
        return iter(self.index.decode(self.bits))

    def __len__(self):
        return self.bits.bit_count()

    def __repr__(self):
        return f"NameSet({sorted(self)!r})"

    @classmethod
    def _from_iterable(cls, iterable):
        return frozenset(iterable)

    __hash__ = Set._hash


class FactMap:
    """``facts[node]`` as a ``NameSet``, over a dict of bit vectors keyed by node."""

    __slots__ = ("index", "bits")

    def __init__(self, index, bits):
        self.index, self.bits = index, bits

    def __getitem__(self, node):
        return NameSet(self.index, self.bits[node])

    def __contains__(self, node):
        return node in self.bits

    def has(self, node, name):
        """``name in facts[node]``, without building the view."""
        found = self.index.bit.get(name)   # (``NameIndex.has``, inlined: asked very often)
        return found is not None and bool(self.bits[node] & found)
