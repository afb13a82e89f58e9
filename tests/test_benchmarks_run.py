"""Every benchmark script still runs and prints its figures (on the smallest workload each takes).

The figures themselves are not checked here: speed is measured by running the scripts, not by timed
tests on a shared machine. This only keeps the scripts from rotting as the code they measure changes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

SMALLEST = {
    "engine_speed.py": [],
    "yacht_solver.py": ["--games", "200"],
    "watch_latency.py": ["--throws", "2"],
    "watch_speed.py": ["--frames", "30", "--baseline-frames", "5"],
    "reader_speed.py": ["--rounds", "1", "--frames", "2", "--memory", "3"],
    "synth_scenes.py": ["--seeds", "3", "--tiles", "2", "--sheet", "sheet.png"],
    "mishaps.py": ["--throws", "1"],
    "cocked_margin.py": ["--photos", "3", "--throws", "1"],
    "teach.py": ["--source", "rune55-graytray", "--teach", "4", "--val", "1", "--speed-throws", "4"],
    "finder_recall.py": ["--photos", "3", "--rounds", "1"],
    "teach_features.py": ["--models", str(BENCHMARKS.parent / "vision" / "models"), "--source", "rune55-graytray",
                          "--photos", "12", "--teach", "4", "--kinds", "pool7", "map7", "--l2", "10"],
}
# Scripts that measure on the labelled photos beside the repository: skipped without them.
NEEDS_PHOTOS = {"teach.py", "teach_features.py", "finder_recall.py", "cocked_margin.py"}
# Scripts that edit a network with onnx (the [train] extra): skipped without it.
NEEDS_ONNX = {"teach_features.py"}
PHOTOS = Path(__file__).resolve().parent.parent.parent / "shared" / "dice-photos" / "manifest.csv"


def test_every_benchmark_script_has_a_smallest_run_here():
    scripts = {p.name for p in BENCHMARKS.glob("*.py")} - {"blob_baseline.py", "pinning.py"}
    assert scripts == set(SMALLEST)


@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_the_benchmark_runs_and_prints_figures(script, tmp_path):
    if script in NEEDS_PHOTOS and not PHOTOS.is_file():
        pytest.skip(f"needs the labelled photos ({PHOTOS})")
    if script in NEEDS_ONNX:
        pytest.importorskip("onnx")
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *SMALLEST[script]], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert any(ch.isdigit() for ch in done.stdout), done.stdout
