"""Differentiation modes: each turns a normalized function into derivative statements."""
