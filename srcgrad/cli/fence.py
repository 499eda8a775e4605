"""``python -m srcgrad fence [--markdown]``: every construct the language fence refuses,
one message per line, as ``sg.TransformError`` gives it (``NAME`` stands for the name the
user wrote). ``--markdown`` prints the list that docs/what-compiles.md holds."""

from __future__ import annotations


def add_parser(subparsers):
    parser = subparsers.add_parser("fence", help="list what the language fence refuses")
    parser.add_argument("--markdown", action="store_true", help="as a Markdown list")
    return parser


def run(args):
    from srcgrad.frontend.fence import refusals

    for message in refusals():
        print(f"- {message}" if args.markdown else message)
    return 0
