"""Ahead of time: a module's derivatives written out as one standalone module.

- ``emit``            ``emit_module``: every unit's generated source in one module that
                      needs only NumPy and ``srcgrad.runtime`` (``python -m srcgrad emit``)
- ``custom_callees``  callees with a ``custom_vjp`` rule, defined around the user's
                      ``fwd`` and ``bwd``
"""
