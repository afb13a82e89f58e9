"""One core for a benchmark: the figures are per core, as the issue's targets are, and a shared
machine's other work then competes for one core only instead of moving the process around."""

from __future__ import annotations

import os

import cv2


def one_core() -> str:
    """Pin this process to its lowest allowed core and make OpenCV single-threaded; returns a short
    description for the benchmark's header line (Linux only: elsewhere the process is not pinned)."""
    cv2.setNumThreads(1)
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return f"pinned to core {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"
