"""Analyses over the normalized function: a CFG, a generic dataflow solver, and the
facts the modes need (activity, definedness, liveness).

- ``cfg``, ``dataflow``, ``bits``  the control-flow graph, the worklist solver over it,
                                   sets of names as bit vectors
- ``activity``   which values depend on a ``wrt`` input and reach the output
- ``aliases``    which names may share storage, and which statements write through a name
- ``copies``     names surely the same object, and views surely bound, at each statement
- ``arrays``     which locals are proven NumPy arrays
- ``scalars``    which names surely hold a scalar
- ``escapes``    may a function read again what it let out of its sight
"""
