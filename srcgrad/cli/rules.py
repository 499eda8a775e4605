"""``python -m srcgrad rules [--mode reverse|forward] [--count]``: list every function
the rule table differentiates, one qualified name per line with the modes it supports."""

from __future__ import annotations


def add_parser(subparsers):
    parser = subparsers.add_parser("rules", help="list the differentiable functions")
    parser.add_argument("--mode", choices=["reverse", "forward"],
                        help="only the functions this mode differentiates")
    parser.add_argument("--count", action="store_true", help="print only how many")
    return parser


def rule_modes(rule):
    """The modes a row supports: reverse with an adjoint, forward with a tangent."""
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


def run(args):
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
