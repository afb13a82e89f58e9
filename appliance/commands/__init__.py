"""One module per ``dicetable`` subcommand: ``add_arguments(parser)`` and ``run(args) -> int``
(and ``argtypes``, the argument types several of them share)."""
