"""``python -m srcgrad rules [--mode reverse|forward] [--count]``: list every function
the rule table differentiates, one qualified name per line with the modes it supports.

``--nondiff``: instead, what srcgrad treats as having a zero derivative (functions whose
result is locally constant in their float inputs, array methods and attributes), one per
line; ``--markdown`` prints that list as docs/zero-derivative.md holds it."""

from __future__ import annotations


def add_parser(subparsers):
    parser = subparsers.add_parser("rules", help="list the differentiable functions")
    parser.add_argument("--mode", choices=["reverse", "forward"],
                        help="only the functions this mode differentiates")
    parser.add_argument("--count", action="store_true", help="print only how many")
    parser.add_argument("--nondiff", action="store_true",
                        help="list what has a zero derivative instead")
    parser.add_argument("--markdown", action="store_true",
                        help="with --nondiff: as a Markdown list")
    return parser


def rule_modes(rule):
    """The modes a row supports: reverse with an adjoint, forward with a tangent; a row
    with neither refuses a derivative through its parameters (``slice``'s bounds)."""
    if not rule.adjoints and rule.tangent is None and rule.refuses:
        return ["refused where a derivative flows"]
    modes = []
    if rule.adjoints:
        modes.append("reverse")
    if rule.tangent is not None:
        modes.append("forward")
    return modes


def differentiable_functions():
    """``{qualified name: modes}`` for the user-facing rows of the rule table."""
    from srcgrad.rules import REGISTRY, load_optional_rows

    load_optional_rows()
    return {name: rule_modes(rule) for name, rule in sorted(REGISTRY.rows().items())
            if not name.startswith("srcgrad.")}


def zero_derivative_names():
    """Functions (qualified names), then ``.method()`` and ``.attribute`` names, that
    carry no derivative: srcgrad's own helpers left out."""
    from srcgrad.rules import NONDIFF_ATTRIBUTES, REGISTRY, load_optional_rows
    from srcgrad.rules.methods import NONDIFF_METHODS

    load_optional_rows()
    functions = sorted(n for n in REGISTRY.nondiff_names() if not n.startswith("srcgrad."))
    methods = sorted(f".{name}()" for name in NONDIFF_METHODS)
    attributes = sorted(f".{name}" for name in NONDIFF_ATTRIBUTES)
    return functions + methods + attributes


def run(args):
    if args.markdown and not args.nondiff:
        from srcgrad.cli.errors import UsageError

        raise UsageError("--markdown goes with --nondiff")
    if args.nondiff:
        names = zero_derivative_names()
        if args.count:
            print(len(names))
        for name in () if args.count else names:
            print(f"- `{name}`" if args.markdown else name)
        return 0
    table = differentiable_functions()
    if args.mode:
        table = {name: modes for name, modes in table.items() if args.mode in modes}
    if args.count:
        print(len(table))
        return 0
    width = max(map(len, table), default=0)
    for name, modes in table.items():
        print(f"{name:<{width}}  {', '.join(modes)}")
    return 0
