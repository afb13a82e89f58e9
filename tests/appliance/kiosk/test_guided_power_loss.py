"""A pulled plug at any moment of the guided setup: the restart comes back at the step that was
showing, with every step confirmed before it kept (its tray area, light lock, empty tray and
taught throws in the store) and nothing half-saved; the setup then ends as one never cut short.

The setup is walked in a subprocess (this file run as a script) on a scripted camera over the
synthetic table, each step confirmed as players would; the test kills it with SIGKILL at random
moments, restarts it, and checks every restart and the final store. The child prints one JSON
object per line: resume (where it came back), did (an action taken), done.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

KILLS = 12
THROWS = [(1, 2, 3, 4, 5), (6, 5, 4, 3, 2), (2, 2, 3, 5, 6), (1, 1, 4, 4, 6), (3, 3, 3, 5, 1), (6, 6, 2, 1, 4)]


class Camera:
    """The camera pipeline as the guided setup uses it, over the synthetic table."""

    def __init__(self) -> None:
        from vision.synth import SyntheticTable

        self.frame = SyntheticTable(2, seed=0).read().image
        self.state, self.last_settled = "empty", (None, None)

    def feed(self):
        return self.frame, (), True, "Tray empty"

    def calibrate(self, tray, reference) -> None:
        pass

    def exposure(self, action, values=None):
        future = Future()
        future.set_result({"ExposureTime": 8000, "AnalogueGain": 1.5} if action == "lock" else None)
        return future

    def throw(self, values, seed):
        from vision.reader import read_dice
        from vision.synth import render_still

        image, _truth = render_still(values, seed=seed)
        self.last_settled = (image, read_dice(image, expected=len(values)))
        return self.last_settled[1]


def _emit(**fields) -> None:
    print(json.dumps(fields, sort_keys=True), flush=True)


def walk(state_dir: Path) -> int:
    """The guided setup from wherever the store says it is, to its end."""
    from appliance import guided
    from appliance.kiosk.app import App
    from appliance.kiosk.screens.guided import SETTLE_S
    from appliance.store import Store

    now = [0.0]
    with Store.open(state_dir) as store:
        camera = Camera()
        app = App(store=store, camera=camera, clock=lambda: now[0])
        if not guided.due(store):
            _emit(t="done", results=guided.progress(store).results)
            return 0
        app.open_guided(resume=True)
        g = app.guided
        _emit(t="resume", step=g.progress.step, results=g.progress.results, taught=g.taught())
        while app.screen == "guided":
            step = g.progress.step
            if step == "tray":
                app.choose("confirm")
            elif step == "exposure":
                app.choose("lock")
                app.tick()
                now[0] += SETTLE_S + 1
                app.tick(), app.tick()
                app.choose("next")
            elif step == "reference":
                app.choose("picture")
                app.choose("next")
            elif g.decision:
                app.choose("done")
            elif g.fitting:  # the table learns in its own thread: frames go on until it has
                while g.fitting:
                    time.sleep(0.01)
                    app.tick()
            else:
                k = g.taught()
                app.on_reading(camera.throw(THROWS[k % len(THROWS)], seed=k))
                app.choose("right")
            _emit(t="did", step=step, now=g.progress.step, taught=g.taught())
        _emit(t="done", results=guided.progress(store).results)
    return 0


def _child(state_dir: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, str(state_dir)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[3])


def _saved(state_dir: Path) -> dict:
    """What the store keeps of the setup, read afresh."""
    from appliance import guided
    from appliance.store import Store

    with Store.open(state_dir) as store:
        p = guided.progress(store)
        return {"step": p.step if p else None, "results": p.results if p else {},
                "tray": store.setting(guided.TRAY), "exposure": store.setting(guided.EXPOSURE),
                "reference": store.image(guided.REFERENCE) is not None, "throws": store.count_examples()[0]}


def _episode(state: Path, rng: random.Random) -> int:
    """One setup walked to its end through kills at random moments; returns how many runs were killed."""
    from appliance import guided

    before = {"step": None, "results": {}, "throws": 0}
    killed = 0
    for _run in range(40):
        proc = _child(state)
        target = rng.randint(0, 4)  # lines to let through; 0: while it starts up
        lines = []
        if target == 0:
            time.sleep(rng.uniform(0.0, 0.3))
            proc.send_signal(signal.SIGKILL)
        for line in proc.stdout:
            lines.append(json.loads(line))
            if target and len(lines) >= target and proc.poll() is None:
                time.sleep(rng.uniform(0.0, 0.02))  # into the next action's commit, now and then
                proc.send_signal(signal.SIGKILL)
                target = None
        proc.wait(timeout=120)
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.read()
        saved = _saved(state)
        # Nothing half-saved: each step's result comes with what it keeps, and only steps up to the
        # one showing have a result.
        order = guided.STEPS + (guided.DONE,)
        assert set(saved["results"]) <= set(order[:order.index(saved["step"]) + 1] if saved["step"] else ())
        assert (saved["results"].get("tray") == "confirmed") == (saved["tray"] is not None)
        assert (saved["results"].get("exposure") == "locked") == (saved["exposure"] is not None)
        assert (saved["results"].get("reference") == "taken") == saved["reference"]
        assert saved["throws"] <= guided.TEACH_THROWS
        for m in lines:  # it came back at the step the store said, with what it had kept
            if m["t"] == "resume" and before["step"] is not None:
                assert (m["step"], m["results"]) == (before["step"], before["results"])
                assert m["taught"] == before["throws"] or m["step"] != "teach"
        before = saved
        if proc.returncode == 0:
            assert lines[-1]["t"] == "done"
            assert saved["step"] == guided.DONE and saved["results"] == {
                "tray": "confirmed", "exposure": "locked", "reference": "taken", "teach": "taught"}
            assert saved["throws"] == guided.TEACH_THROWS
            return killed
        killed += 1
    raise AssertionError("the setup does not finish")


def test_a_pulled_plug_mid_setup_comes_back_at_its_step_with_everything_confirmed_before_kept(tmp_path):
    rng = random.Random(20261202)
    killed = sum(_episode(tmp_path / f"table{n}", rng) for n in range(3))
    assert killed >= KILLS


if __name__ == "__main__":
    sys.exit(walk(Path(sys.argv[1])))
