"""``python -m srcgrad emit FILE.py [-o OUT.py] [--function NAME ...] [--module NAME]``:
write the derivatives of a module's ``@sg.differentiable`` functions (or of the functions
named with ``--function``) and of the user functions they call as one standalone module.
"""

from __future__ import annotations

import os
import pathlib
import tempfile

from srcgrad.cli.errors import UsageError
from srcgrad.cli.load import differentiable_target, load_module


def add_parser(subparsers):
    parser = subparsers.add_parser(
        "emit", help="write the derivatives of a module as a standalone module")
    parser.add_argument("file", help="the module, FILE.py")
    parser.add_argument("-o", "--output", help="where to write (default: standard output)")
    parser.add_argument("--function", action="append", metavar="NAME",
                        help="emit this module-level function (repeatable; default: every "
                             "@sg.differentiable function)")
    parser.add_argument("--module", metavar="NAME",
                        help="the name the emitted code imports FILE.py as (default: its "
                             "file name without .py)")
    return parser


def run(args):
    from srcgrad.aot import emit as aot

    path = pathlib.Path(args.file)
    module = load_module(path)
    if args.function:
        functions = []
        for name in args.function:
            if name not in vars(module):
                raise UsageError(f"{args.file} has no function {name!r}")
            functions.append(differentiable_target(vars(module)[name], f"{args.file}:{name}"))
    else:
        functions = aot.differentiable_functions(module)
    if not functions:
        raise UsageError(f"{args.file} has no @sg.differentiable functions; "
                         "mark some or name them with --function")
    if args.output and not pathlib.Path(args.output).resolve().parent.is_dir():
        raise UsageError(f"-o {args.output}: no such directory")
    command = _command(args)
    text = aot.emit_module(functions, {id(vars(module)): args.module or path.stem},
                           source_label=path.name, command=command)
    if args.output:
        _write_atomically(pathlib.Path(args.output), text)
    else:
        print(text, end="")
    return 0


def _command(args):
    parts = ["python -m srcgrad emit", pathlib.Path(args.file).name]
    parts += [f"--function {name}" for name in args.function or ()]
    parts += [f"--module {args.module}"] if args.module else []
    parts += [f"-o {pathlib.Path(args.output).name}"] if args.output else []
    return " ".join(parts)


def _write_atomically(path, text):
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
