"""Every test is hardware-free: mock GPIO pins, dummy SDL video and audio, no camera."""

from __future__ import annotations

import os
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


@pytest.fixture
def photos_dir() -> Path:
    """The real labelled photos, ../shared/dice-photos beside the repository (skips if missing)."""
    if not (PHOTOS / "manifest.csv").is_file():
        pytest.skip(f"real dice photos not found at {PHOTOS} (they live beside the repository in ../shared)")
    return PHOTOS


def pytest_terminal_summary(terminalreporter):
    """Say what the expected failures are, so a newcomer does not take them for broken tests."""
    xfailed = terminalreporter.stats.get("xfailed", [])
    if xfailed:
        terminalreporter.write_line(
            f"{len(xfailed)} xfailed: targets the dice reader does not reach yet, each with its measured "
            "figure (see vision/models/README.md); not failures. A figure below what the shipped models "
            "reach fails.")
