"""One module per ``dicetable`` subcommand: ``add_arguments(parser)`` and ``run(args) -> int``."""
