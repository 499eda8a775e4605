"""What users call: the public API over the compiler (``srcgrad`` re-exports it).

- ``functional``     ``grad``, ``value_and_grad``, ``vjp``, ``source``: resolve ``wrt``,
                     ask the compiler for the unit, hand back its generated functions
- ``higher``         ``jvp``, ``hvp``, ``hessian`` (forward mode, second order)
- ``jacobians``      ``jacobian``, ``jacfwd``, ``jacrev``, ``elementwise_grad``
- ``has_aux``        JAX's ``has_aux``: differentiate the first of ``(output, aux)``
- ``custom``         the user's own rules: ``custom_vjp``, ``custom_jvp``
- ``checkpointing``  ``checkpoint``, ``checkpoint_loop``: recomputation for memory
- ``pytree``         nested containers of arrays, flattened and rebuilt
- ``optimizers``     ``sgd``, ``rmsprop``, ``adam`` over pytrees (``srcgrad.api.optimizers``)
- ``typing``         ``Wrt``, ``Function``, ``Gradient`` for annotations (``srcgrad.api.typing``)

The TF-eager APIs built on the same units are in ``srcgrad.eager``.
"""
