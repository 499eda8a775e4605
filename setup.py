"""Build configuration beyond pyproject.toml: the optional C hot path of GradientTape.

``srcgrad/eager/_fast.c`` is compiled when a C compiler is available; without it
srcgrad runs the same hot path in Python (``srcgrad/eager/fastpath.py``).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("srcgrad.eager._fast", ["srcgrad/eager/_fast.c"],
                             optional=True)])
