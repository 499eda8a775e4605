"""Objectives of the public AD benchmarks (ADBench, and its successor GradBench), ported to
plain NumPy with the least change, for measuring srcgrad on the code those suites run.

ADBench and GradBench are MIT-licensed (Copyright (c) Microsoft Corporation; GradBench's
contributors); each module names the file it follows. The ports are written anew here:
only the structure of each objective (its loops, in-place writes, lists) is kept, so that
srcgrad sees the same kinds of programs.
"""
