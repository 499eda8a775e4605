"""What forward mode knows at one point of the generated code.

``tangents`` maps each name whose tangent is (symbolically) nonzero to whether that
tangent may share its buffer with another tangent while the primal values do not
(``_add_dot = x_dot`` for ``_add = x + 1``); an in-place write copies such a tangent
first. ``defined`` holds the names surely assigned on every path reaching the point.

Before a join::                       After ``join(then, else)``::

    then: {x_dot: shared}                 {x_dot: shared, y_dot: own}
    else: {x_dot: own, y_dot: own}        defined: then.defined & else.defined
"""

from __future__ import annotations


class TangentState:
    def __init__(self, tangents=None, defined=()):
        self.tangents = dict(tangents or {})
        self.defined = set(defined)

    def __contains__(self, name):
        return name in self.tangents

    def copy(self):
        return TangentState(self.tangents, self.defined)

    def join(self, a, b):
        """This state becomes the meet of two paths' states (they may include ``self``)."""
        names = set(a.tangents) | set(b.tangents)
        self.tangents = {n: a.tangents.get(n, False) or b.tangents.get(n, False)
                         for n in sorted(names)}
        self.defined = a.defined & b.defined
