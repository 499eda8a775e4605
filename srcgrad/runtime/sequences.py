"""What loops and values over ``zip``/``enumerate`` call: the number of items, with the
checks that make indexing each argument equal to iterating it.

``zip(xs, ys)`` becomes ``[(xs[i], ys[i]) for i in range(_sg.zip_length(xs, ys))]``:
indexing is what carries derivatives, and it only means iteration for sequences (a dict
indexed by position would silently give other items), so anything else is refused.
"""

import numpy as np

from srcgrad.errors import TransformError

__all__ = ["zip_length"]

_SEQUENCES = (list, tuple, np.ndarray, range, str)


def zip_length(*sequences, strict=False, line=None):
    """The number of items ``zip(*sequences)`` gives (``strict``: all lengths equal, or
    ``ValueError`` as ``zip(..., strict=True)`` raises); ``line``: the user's line."""
    for position, sequence in enumerate(sequences):
        if not isinstance(sequence, _SEQUENCES) or getattr(sequence, "ndim", 1) == 0:
            where = f" (line {line})" if line is not None else ""
            raise TransformError(
                f"zip()/enumerate() over a {type(sequence).__name__} (argument "
                f"{position + 1}){where} is not supported in differentiated code: only "
                "lists, tuples and arrays are (convert it with list(...))")
    lengths = [len(sequence) for sequence in sequences]
    if strict and len(set(lengths)) > 1:
        shorter = min(range(len(lengths)), key=lengths.__getitem__)
        raise ValueError(f"zip() argument {shorter + 1} is shorter than the others")
    return min(lengths) if lengths else 0
