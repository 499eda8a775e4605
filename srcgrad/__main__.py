"""Command line: ``python -m srcgrad show|...`` (see ``srcgrad.cli``)."""

from __future__ import annotations

import argparse
import importlib
import sys

from srcgrad.cli import COMMANDS
from srcgrad.errors import SrcgradError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m srcgrad",
                                     description="srcgrad: readable generated derivatives")
    subparsers = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name in COMMANDS:
        module = importlib.import_module(f"srcgrad.cli.{name}")
        module.add_parser(subparsers)
        modules[name] = module
    args = parser.parse_args(argv)
    try:
        return modules[args.command].run(args) or 0
    except SrcgradError as exc:
        print(f"srcgrad: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
