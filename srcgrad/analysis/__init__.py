"""Analyses over the normalized function: a CFG, a generic dataflow solver, and the
facts the modes need (activity, definedness, liveness)."""
