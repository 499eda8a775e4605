"""The driver: from a user function and ``wrt`` to a compiled unit of generated code.

The stages it runs are packages of their own (``frontend``, ``normalize``, ``analysis``,
``modes``, ``optimize``, ``codegen``); this package runs them and keeps what they made:

- ``reverse``       ``reverse_unit(fn, wrt)``: the reverse-mode pipeline, a unit of four
                    generated functions (``f_forward``, ``f_backward``, ``f_grad``,
                    ``f_value_and_grad``) and its scalar-specialized variant
- ``reverse_assembly``  those four ``def``s built from the sweeps
- ``forward``       ``forward_unit(fn, wrt)``: the forward-mode pipeline (``f_jvp``)
- ``guards``        what a unit assumed about the names it resolved, checked on entry
- ``unit_cache``    compiled units in memory, keyed by function, kind, ``wrt``, guards
- ``cache``, ``cache_keys``  generated code on disk, keyed by whole code objects
- ``dispatch``      calls through values, resolved when they run
- ``call_wrappers`` the small generated functions those calls go through
- ``entry_points``  what the runtime calls back for those (registered with it on load:
                    ``srcgrad.runtime`` never imports the compiler)
- ``debug``         tracebacks that name the user's line; the NaN/inf check
"""
