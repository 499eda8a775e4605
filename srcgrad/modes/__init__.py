"""Differentiation modes: each turns a normalized function into derivative statements.

- ``calls``               what a call in the user's code is (shared by both modes)
- ``forward``             forward mode: each statement gives its tangent statements
- ``forward_calls``       its calls (rule rows, user functions' ``jvp``, dynamic calls)
- ``forward_control``     its ``if``, ``try`` and loops
- ``forward_rules``       a rule-table row expanded into a tangent expression
- ``forward_state``       what forward mode knows at one point (tangents, defined names)
- ``reverse``             reverse mode: each statement gives forward and adjoint statements
- ``reverse_adjoints``    adding a contribution to an adjoint
- ``reverse_facts``       what reverse mode asks of the function (what a call is, ...)
- ``reverse_expressions`` the adjoint of one assignment's value
- ``reverse_calls``       calls of other user code and of values
- ``reverse_containers``  writes into lists, dicts and items
- ``reverse_exceptions``  ``try`` with handlers
- ``reverse_loops``       ``for`` and ``while`` loops, forward and reversed
- ``reverse_rules``       a rule-table row expanded into adjoint statements
- ``reverse_common``      small facts about normalized statements both share
"""
