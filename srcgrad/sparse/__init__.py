"""Sparse Jacobians and Hessians: the pattern found by a dependency sweep generated from
the source (``pattern``), compressed by a colouring (``colouring``, ``compressed``),
evaluated in a few derivative sweeps (``sweeps``) and decompressed into ``scipy.sparse``
(the public functions are in ``srcgrad.api.sparse``)."""
