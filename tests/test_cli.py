"""The command line's stable surface: --version, --help lists every DESIGN.md subcommand."""

import os
import subprocess
import sys

import pytest

from appliance import __version__
from appliance.cli import COMMANDS, main


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_help_lists_every_subcommand_of_the_design():
    out = subprocess.run(
        [sys.executable, "-m", "appliance", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name in ("demo", "kiosk", "read", "watch", "replay", "advise", "selftest", "summary"):
        assert name in COMMANDS
        assert name in out


def test_no_subcommand_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["demo", "--headless", "--seed", "-1"], ["watch", "synthetic", "--seed", "-1"]])
def test_a_negative_seed_is_refused_in_one_line_before_anything_runs(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "a seed must be 0 or more, not -1" in err and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["demo", "--headless", "--size", "800by480"], "a size is WIDTHxHEIGHT in px, e.g. 800x480, not '800by480'"),
    (["demo", "--headless", "--size", "10x10"], "a size must be 320x240 to 7680x4320 px, not '10x10'"),
    (["watch", "synthetic", "--size", "9000x480"], "a size must be 16x16 to 8192x8192 px, not '9000x480'"),
])
def test_a_size_out_of_its_range_or_form_is_refused_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("argv, usage", [
    (["advise", "yacht", "1", "2", "3"], "dicetable advise yacht: error: unrecognized arguments: 1 2 3"),
    (["read", "--bogus", "x.png"], "dicetable read: error: unrecognized arguments: --bogus"),
    (["--bogus"], "dicetable: error: unrecognized arguments: --bogus"),
])
def test_a_word_a_command_does_not_take_is_refused_with_that_commands_usage(argv, usage, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert usage in err and f"usage: {usage.split(':')[0]} " in err


def test_a_warning_for_the_journal_is_said_after_the_commands_name(tmp_path):
    # Outside the kiosk no logging is set up: Python's last-resort handler printed it bare.
    # The coach's cache that cannot be read is one: the tables are solved again, and it is said.
    (tmp_path / "dicetable").mkdir()
    (tmp_path / "dicetable" / "yacht-coach-v1-seed-fh0.npz").write_bytes(b"garbage")
    env = {k: v for k, v in os.environ.items() if k not in ("CACHE_DIRECTORY", "STATE_DIRECTORY")}
    done = subprocess.run([sys.executable, "-m", "appliance", "advise", "yacht", "--roll", "1", "2", "3", "4", "5"],
                          capture_output=True, text=True, env={**env, "XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 0 and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("dicetable advise: yacht coach cache "), done.stderr


def _closing(fd: int):
    """A child's preexec_fn that closes its descriptor ``fd`` (`>&-`, `2>&-` in a shell)."""
    return lambda: os.close(fd)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("command", ["advise", "replay"])
@pytest.mark.parametrize("output, reason", [("full", "No space left on device"), ("closed", "standard output is closed")])
def test_an_output_that_cannot_be_written_is_said_in_one_line(command, output, reason, tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text('{"game": "maexle", "players": ["Ann", "Bo"]}\n{"announce": 54}\n', encoding="utf-8")
    argv = ["advise", "yacht", "--roll", "1", "2", "3", "4", "5"] if command == "advise" else ["replay", str(log)]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "appliance", *argv], stderr=subprocess.PIPE, text=True,
                              timeout=120, **({"stdout": full} if output == "full" else {"preexec_fn": _closing(1)}))
    assert done.returncode == 74
    assert done.stderr.strip() == f"dicetable {argv[0]}: its output could not be written ({reason})"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("argv", [["--help"], ["teach", "--help"], ["--version"]])
@pytest.mark.parametrize("output, reason", [("full", "No space left on device"), ("closed", "standard output is closed")])
def test_help_that_cannot_be_written_is_said_in_one_line_too(argv, output, reason):
    # argparse prints the help and swallows the write's error: it exited 0 in silence.
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "appliance", *argv], stderr=subprocess.PIPE, text=True,
                              timeout=120, **({"stdout": full} if output == "full" else {"preexec_fn": _closing(1)}))
    assert done.returncode == 74
    assert done.stderr.strip() == f"dicetable: its output could not be written ({reason})"


def test_with_standard_error_closed_an_error_does_not_go_to_standard_output(tmp_path):
    done = subprocess.run([sys.executable, "-m", "appliance", "read", str(tmp_path / "nope.jpg")],
                          stdout=subprocess.PIPE, text=True, timeout=120, preexec_fn=_closing(2))
    assert done.returncode == 1 and done.stdout == ""


def test_ctrl_c_while_the_commands_are_still_being_loaded_exits_130_without_a_traceback(monkeypatch, capsys):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr("appliance.cli.build_parser", interrupted)  # it imports numpy: a moment, more under load
    assert main(["read", "x.png"]) == 130
    assert capsys.readouterr() == ("", "")
