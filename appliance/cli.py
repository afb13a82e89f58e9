"""The ``dicetable`` command line (stable: scripts depend on it, see ../shared/DESIGN.md).

Each subcommand lives in its own module ``appliance.commands.<name>`` with two functions:
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status). Command modules import
their heavy dependencies (OpenCV, pygame) inside ``run`` so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import sys

from appliance import __version__

# name -> one-line help. The order is the order of ``dicetable --help``.
COMMANDS: dict[str, str] = {
    "demo": "the whole appliance on a synthetic dice table (window, or a scripted evening headless)",
    "kiosk": "the appliance as the boot service runs it: camera, GPIO, full screen",
    "read": "read the dice in still photos",
    "watch": "run the settle detector over a camera, video file or image folder",
    "teach": "teach the table its own dice from labelled photos (or forget them)",
    "replay": "feed a game log to the rules engine and print the events",
    "advise": "the optimal declaration for a Yacht roll, and Mäxle odds",
    "selftest": "check config, camera, display, GPIO, state directory and fonts",
    "summary": "the evening's drinks, penalty points, rarest throw and Yacht scores (--png: the chart)",
}


def _not_built(name: str):
    def run(args: argparse.Namespace) -> int:
        print(f"dicetable {name}: not built yet", file=sys.stderr)
        return 2

    return run


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser; subcommands whose module is missing say "not built yet"."""
    parser = argparse.ArgumentParser(
        prog="dicetable",
        description="Dice Table: a camera reads real dice, the kiosk runs the game.",
    )
    parser.add_argument("--version", action="version", version=f"dicetable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        try:
            module = importlib.import_module(f"appliance.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"appliance.commands.{name}":
                raise
            cmd = sub.add_parser(name, help=f"{help_text} (not built yet)")
            cmd.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
            cmd.set_defaults(run=_not_built(name))
            continue
        cmd = sub.add_parser(name, help=help_text, description=module.__doc__)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    _own_usage(parser)
    return parser


def _own_usage(parser: argparse.ArgumentParser) -> None:
    """Every subcommand's parser (``advise yacht`` too) as its namespace's ``usage_of``: a word it
    does not take is refused with its own usage, not the top level's."""
    for action in parser._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                child.set_defaults(usage_of=child)
                _own_usage(child)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dicetable`` console script; returns the exit status (130 after Ctrl-C,
    74 when standard output cannot be written, 2 for a usage error)."""
    if sys.stderr is None:  # closed (`2>&-`): errors go nowhere, not to standard output (print's default)
        sys.stderr = open(os.devnull, "w")
    try:
        return _main(argv)
    except KeyboardInterrupt:  # also while the command's modules are still being imported
        return 130


def _main(argv: list[str] | None) -> int:
    # pygame greets on standard output when imported: no line a script reading a command's output
    # (summary, replay) or the journal (kiosk) should get.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.stdout = output = _Output(sys.stdout)  # before --help too: its text is output as well
    name = "dicetable"
    try:
        try:
            parser = build_parser()
            argv = sys.argv[1:] if argv is None else list(argv)
            args, extra = parser.parse_known_args(argv)
            if extra:
                args = _intermixed(args, argv) or getattr(args, "usage_of", parser).error(
                    f"unrecognized arguments: {' '.join(extra)}")
        except SystemExit:  # --help printed (0), or a usage error said on stderr (2)
            output.flush()
            if output.failed:  # argparse prints and swallows the error: raised again for below
                raise output.error from None
            raise
        if not getattr(args, "run", None):
            parser.print_help()
            output.flush()
            return 2
        name = f"dicetable {args.command}"
        # A warning logged for the journal reaches a command's stderr only while no logging is set
        # up (the kiosk and the demo set up their own): then it is said as the command's other errors are.
        logging.lastResort.setFormatter(logging.Formatter(f"{name}: %(message)s"))
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if not output.failed:
            raise
        # Standard output is a full disk, a file past its quota, a device gone: the command's own
        # errors are not at fault, and a script reading its exit status is told (EX_IOERR).
        print(f"{name}: its output could not be written ({exc.strerror or exc})", file=sys.stderr)
        if output.stream is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)  # the interpreter's last flush must not fail again
            os.dup2(devnull, output.fileno())
            os.close(devnull)
        return 74
    finally:
        sys.stdout = output.stream


def _intermixed(args: argparse.Namespace, argv: list[str]) -> argparse.Namespace | None:
    """The command's arguments parsed again with options and operands in any order (``teach a.jpg
    --values "1 2" b.jpg --values "3 4"``: argparse takes a command's operands in one run), or None
    where that cannot be done (a command with commands of its own, ``advise yacht``). Exits with the
    command's usage on an argument it does not take."""
    child = getattr(args, "usage_of", None)
    if child is None or child.prog.split()[1:] != [args.command] or args.command not in argv:
        return None
    try:
        again = child.parse_intermixed_args(argv[argv.index(args.command) + 1:])
    except TypeError:  # argparse cannot intermix this command's arguments
        return None
    again.command = args.command
    return again


class _Output:
    """Standard output that remembers whether a write to it failed, to tell its failure from the
    command's own file errors (both are OSError). ``stream`` None (standard output closed, `>&-`):
    every write fails as on a closed descriptor."""

    def __init__(self, stream) -> None:
        self.stream, self.failed = stream, False
        self.error: OSError | None = None  # the first failed write's

    def write(self, text: str) -> int:
        try:
            if self.stream is None:
                raise OSError(errno.EBADF, "standard output is closed")
            return self.stream.write(text)
        except OSError as exc:
            self.failed, self.error = True, self.error or exc
            raise

    def flush(self) -> None:
        if self.stream is None:
            return  # nothing was written
        try:
            self.stream.flush()
        except OSError as exc:
            self.failed, self.error = True, self.error or exc
            raise

    def __getattr__(self, name: str):
        return getattr(self.stream, name)
