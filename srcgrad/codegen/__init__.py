"""Codegen: names, printing, compiling and loading generated source."""
