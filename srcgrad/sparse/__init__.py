"""Sparse Jacobians and Hessians: patterns found by a dependency sweep generated from the
source (``pattern``), colouring and compressed evaluation."""
