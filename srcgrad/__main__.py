"""Command line: ``python -m srcgrad show|...`` (see ``srcgrad.cli``).

Every error is one line on standard error, ``srcgrad: MESSAGE``, with exit status 2 for a
command line that names something unusable and 1 for a command that failed
(``srcgrad.cli.errors``); ``--traceback`` shows the Python traceback instead. Output into
a closed pipe (``python -m srcgrad rules | head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from srcgrad.cli import COMMANDS
from srcgrad.cli.errors import FAILURE, CommandLineError, describe


def _version():
    from srcgrad import __version__

    return __version__


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m srcgrad",
                                     description="srcgrad: readable generated derivatives")
    parser.add_argument("--traceback", action="store_true",
                        help="on an error, show the Python traceback (for a bug report)")
    parser.add_argument("--version", action="version", version=f"srcgrad {_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name in COMMANDS:
        module = importlib.import_module(f"srcgrad.cli.{name}")
        module.add_parser(subparsers)
        modules[name] = module
    return parser, modules


def main(argv=None):
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    try:
        status = modules[args.command].run(args) or 0
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return FAILURE
    except Exception as exc:
        if args.traceback:
            raise
        print(f"srcgrad: {describe(exc)}", file=sys.stderr)
        return exc.status if isinstance(exc, CommandLineError) else FAILURE


def _silence_stdout():
    """The reader closed the pipe: point stdout at /dev/null so that the interpreter's
    own flush at exit does not print a second BrokenPipeError."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
