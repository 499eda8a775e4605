"""``python -m srcgrad show FILE.py:FUNC [--wrt NAME ...] [--mode reverse|forward]``:
print the generated derivative source, each block of it after a comment quoting the line
of the user's function it came from (``--no-lines``: without them)."""

from __future__ import annotations

import sys

from srcgrad.cli.highlight import colorize
from srcgrad.cli.load import load_function, resolve_wrt


def add_parser(subparsers):
    parser = subparsers.add_parser("show", help="print the generated derivative source")
    parser.add_argument("target", help="FILE.py:FUNC")
    parser.add_argument("--wrt", action="append",
                        help="parameter to differentiate with respect to (repeatable; "
                             "default: the first)")
    parser.add_argument("--mode", choices=["reverse", "forward"], default="reverse")
    parser.add_argument("--all", action="store_true",
                        help="print the whole generated module (forward, backward, fused)")
    parser.add_argument("--no-lines", dest="lines", action="store_false",
                        help="leave out the comments quoting the user's line each block of "
                             "generated code comes from")
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="syntax colour (default: when printing to a terminal)")
    return parser


def run(args):
    import srcgrad as sg
    from srcgrad.api import functional as api
    from srcgrad.compiler import reverse as compiler
    from srcgrad.compiler.citations import cite_user_lines

    fn = load_function(args.target)
    wrt = 0 if not args.wrt else (args.wrt[0] if len(args.wrt) == 1 else tuple(args.wrt))
    names = resolve_wrt(fn, wrt)
    if args.mode == "forward":
        text = sg.source(sg.jvp(fn, names), lines=args.lines)
        print(colorize(text, sys.stdout, args.color), end="")
        return 0
    plain, _ = api._target(fn)
    unit = compiler.reverse_unit(plain, names)
    text = unit.source if args.all else sg.source(unit.grad)
    if args.lines:
        text = cite_user_lines(text, unit)
    print(colorize(text, sys.stdout, args.color), end="")
    return 0
