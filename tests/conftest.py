"""Every test is hardware-free: mock GPIO pins, dummy SDL video and audio, no camera."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

# Before anything imports pygame or gpiozero.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The reader's networks run in OpenCV's dnn module, as on a Pi without the optional onnxruntime;
# tests/vision/test_runtime.py checks that onnxruntime reads alike.
os.environ.setdefault("DICETABLE_RUNTIME", "opencv")

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "dice-photos"


@pytest.fixture(autouse=True)
def mock_pins():
    """A fresh gpiozero MockFactory for every test, closed afterwards; yields the factory."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory.close()
    Device.pin_factory = None


@pytest.fixture(autouse=True)
def english():
    """Every test starts and ends with the kiosk in English (its source language): a test that
    switches the language must not change what the next one reads, whichever tests ran before."""
    from appliance import i18n

    i18n.set_language(i18n.SOURCE_LANGUAGE)
    yield
    i18n.set_language(i18n.SOURCE_LANGUAGE)


@pytest.fixture
def photos_dir() -> Path:
    """The real labelled photos, ../shared/dice-photos beside the repository (skips if missing)."""
    if not (PHOTOS / "manifest.csv").is_file():
        pytest.skip(f"real dice photos not found at {PHOTOS} (they live beside the repository in ../shared)")
    return PHOTOS


@pytest.fixture
def read_only():
    """``read_only(path, ...)`` makes files and folders unwritable for this process, as a read-only
    SD card or a file another user owns would be: by their mode bits, or as root (whom those do not
    stop) by ``chattr +i`` (skips where the file system cannot). Undone after the test."""
    undo = []

    def make(*paths: Path) -> None:
        for path in paths:
            if os.geteuid() == 0:
                done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
                if done.returncode:
                    pytest.skip(f"cannot make {path} read-only as root here: {done.stderr.strip()}")
                undo.append(lambda p=path: subprocess.run(["chattr", "-i", str(p)], check=True))
            else:
                mode = path.stat().st_mode
                path.chmod(mode & ~0o222)
                undo.append(lambda p=path, m=mode: p.chmod(m))

    yield make
    for step in reversed(undo):
        step()


def pytest_terminal_summary(terminalreporter):
    """Say what the expected failures are, so a newcomer does not take them for broken tests."""
    xfailed = terminalreporter.stats.get("xfailed", [])
    if xfailed:
        terminalreporter.write_line(
            f"{len(xfailed)} xfailed: targets the dice reader does not reach yet, each with its measured "
            "figure (see vision/models/README.md); not failures. A figure below what the shipped models "
            "reach fails.")


@pytest.fixture
def write_past_checks():
    """A function ``(path, sql, params=())`` that runs one SQL statement on the store file at
    ``path`` past its CHECK constraints: a row as a damaged disk leaves it, which the store's own
    writes never make."""
    def write(path, sql: str, params=()) -> None:
        db = sqlite3.connect(path)
        try:
            db.execute("PRAGMA ignore_check_constraints = ON")
            db.execute(sql, params)
            db.commit()
        finally:
            db.close()
    return write
