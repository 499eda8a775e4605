"""``python -m srcgrad COMMAND``: each command is a module here with ``add_parser`` and
``run``; ``COMMANDS`` lists them in the order ``--help`` shows."""

COMMANDS = ["show", "emit", "check", "rules", "fence"]
