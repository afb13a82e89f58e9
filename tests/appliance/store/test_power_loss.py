"""A pulled plug at any moment of an evening loses nothing announced and announces nothing twice.

The evening (Mäxle to the end, a stretch of Biscuit, a whole declared Yacht game) is played through
the real Session and Store in a subprocess: this file run as a script. Every roll arrives as a settled
``DiceReading`` the way the camera pipeline hands it over; every choice (announce, reveal, pick,
declare, stop, undo...) is taken by a seeded table whose every move depends only on the game and
how many actions it has, so an interrupted evening, resumed, must reach exactly the state of an
uninterrupted one.

The test plays the evening once without interruption (the reference), then again with SIGKILL at
many random moments (after a random number of announcements plus a random few ms, or during start
up), restarting each time, and checks:

- every restart resumes the same game state and the same drink and penalty counts as the reference
  at that point;
- every announcement of the reference is shown, in the same order with the same events;
- an announcement is shown again after a restart only if the kill cut it off (it was the last thing
  that run showed, and its "announced" mark had not been written);
- the final store (every game's log, events, winner, counts, marks) equals the reference.

The child prints one JSON object per line: start, resume, show (an announcement being shown; the
mark follows it), end, evening.
"""

from __future__ import annotations

import hashlib
import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

EVENING = [
    # (setup, stop after this many actions, or None: play to the end)
    ({"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"limit": 3}}, None),
    ({"game": "biscuit", "players": ["Ann", "Bo", "Cy", "Di"], "rules": {}}, 60),
    ({"game": "yacht", "players": ["Ann", "Bo"], "rules": {}}, None),
]
KILLS = 30
SHOW_S = 0.0005  # how long an announcement "shows" before it is marked: the window a kill can cut


# --- the child: one run of the evening, from wherever the store says it is -----------------------

def _emit(**fields) -> None:
    print(json.dumps(fields, sort_keys=True), flush=True)


def _state(session) -> str:
    return hashlib.sha1(session.game.state_json().encode()).hexdigest()[:16]


def _reading(values: list[int]):
    """A settled reading of these dice, as the settle detector hands it to the session."""
    from vision.reading import DiceReading, Die

    dice = tuple(Die(v, (60.0 + 70 * i, 120.0), (30 + 70 * i, 90, 60, 60), 0.97) for i, v in enumerate(values))
    return DiceReading("ok", dice)


def _move(session, g: int, k: int):
    """The table's k-th move in game g: a function of the game state and (g, k) alone."""
    rng = random.Random(f"evening:{g}:{k}")
    need = session.need
    if session.last_action is not None and rng.random() < 0.05:
        return session.undo()
    acts = need.actions
    if need.dice and "stop" in acts and rng.random() < 0.3:
        return session.act({"stop": True})
    if need.dice:
        return session.dice(_reading([rng.randint(1, 6) for _ in range(need.dice)]))
    if "accept" in acts and rng.random() < 0.5:
        return session.act({"accept": True})
    if "reveal" in acts and rng.random() < 0.45:
        return session.act({"reveal": True})
    if "self_reveal" in acts and rng.random() < 0.1:
        return session.act({"self_reveal": True})
    if "announce" in acts:
        return session.act({"announce": rng.choice(list(need.options[:3]))})
    if "pick" in acts:
        return session.act({"pick": rng.sample(list(need.options), min(need.raw.get("count", 1), len(need.options)))})
    if "thumbs_last" in acts:
        return session.act({"thumbs_last": rng.choice(list(need.options))})
    if "declare" in acts:
        return session.act({"declare": rng.choice(list(need.options))})
    raise AssertionError(f"the scripted table does not know what to do: {need}")


def _show(session, g: int, outcome) -> None:
    _emit(t="show", g=g, seq=outcome.seq, n=len(session.game.actions), state=_state(session),
          tally=session.tally(), events=[e for e in outcome.events if "turn" not in e])
    time.sleep(SHOW_S)
    session.announced(outcome.seq)


def play_evening(state_dir: Path) -> int:
    from appliance.kiosk.words import problem_text
    from appliance.session import Session
    from appliance.store import Store

    kinds = [setup["game"] for setup, _ in EVENING]
    with Store.open(state_dir) as store:
        if store.notice:
            _emit(t="notice", text=store.notice)
        resumed = Session.resume(store)
        session, g = None, None
        if resumed:
            session, pending = resumed
            g = kinds.index(session.kind)
            _emit(t="resume", g=g, n=len(session.game.actions), state=_state(session), tally=session.tally(),
                  pending=[o.seq for o in pending])
            for outcome in pending:
                _show(session, g, outcome)
        while True:
            if session is None:
                g = len(store.ended_games())
                if g >= len(EVENING):
                    break
                session = Session.start(EVENING[g][0], store=store)
                _emit(t="start", g=g, n=0, state=_state(session), tally=session.tally())
            stop_after = EVENING[g][1]
            while not session.over and not (stop_after and len(session.game.actions) >= stop_after):
                outcome = _move(session, g, len(session.game.actions) + 1)
                if not outcome.accepted:
                    _emit(t="refused", g=g, problem=problem_text(outcome.problem))
                    return 3
                _show(session, g, outcome)
            session.end()
            _emit(t="end", g=g)
            session = None
        _emit(t="evening", counts=store.evening())
    return 0


# --- the test ----------------------------------------------------------------------------------------

def _child(state_dir: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, str(state_dir)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[3])


def _dump(state_dir: Path) -> list:
    db = sqlite3.connect(f"file:{state_dir / 'dicetable.sqlite3'}?mode=ro", uri=True)
    try:
        games = db.execute("SELECT id, setup, winner, tally, announced, ended IS NOT NULL FROM games ORDER BY id").fetchall()
        return [(g, [tuple(r) for r in db.execute(
            "SELECT seq, action, events FROM actions WHERE game_id = ? ORDER BY seq", (g[0],))]) for g in games]
    finally:
        db.close()


def _run_to_end(state_dir: Path) -> list[dict]:
    proc = _child(state_dir)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_sigkill_at_random_moments_loses_nothing_and_repeats_nothing(tmp_path):
    reference = _run_to_end(tmp_path / "reference")
    ref_shows = [(m["g"], m["seq"], m["events"]) for m in reference if m["t"] == "show"]
    # the game state and counts after n actions of game g, for checking every resume
    ref_at = {(m["g"], m["n"]): (m["state"], m["tally"]) for m in reference if m["t"] in ("start", "show")}
    assert [m["g"] for m in reference if m["t"] == "end"] == [0, 1, 2]
    assert len(ref_shows) > 150

    rng = random.Random(20240611)
    state = tmp_path / "killed"
    runs: list[tuple[list[dict], bool]] = []  # (messages, killed?)
    killed = 0
    while True:
        proc = _child(state)
        messages, was_killed = [], False
        plan_kill = killed < KILLS
        target = rng.choice([0] + [rng.randint(1, 10) for _ in range(5)]) if plan_kill else None
        if target == 0:  # during start-up or resume: before any line
            time.sleep(rng.uniform(0.0, 0.1))
            proc.send_signal(signal.SIGKILL)
        for line in proc.stdout:
            messages.append(json.loads(line))
            if target and len(messages) >= target and proc.poll() is None:
                time.sleep(rng.uniform(0.0, 0.003))
                proc.send_signal(signal.SIGKILL)
                target = None
        proc.wait(timeout=60)
        err = proc.stderr.read()
        was_killed = proc.returncode == -signal.SIGKILL
        assert was_killed or proc.returncode == 0, err
        runs.append((messages, was_killed))
        killed += was_killed
        if not was_killed:
            break
        assert len(runs) < KILLS * 3, "the evening does not finish"

    assert killed >= KILLS * 0.8, f"only {killed} runs were killed mid-way"
    everything = [m for messages, _ in runs for m in messages]
    assert not [m for m in everything if m["t"] in ("notice", "refused")]

    # every restart resumes the same state and the same counts as the reference had at that point
    resumes = [m for m in everything if m["t"] == "resume"]
    assert len(resumes) >= killed * 0.5
    for m in resumes:
        assert (m["state"], m["tally"]) == ref_at[(m["g"], m["n"])], m

    # nothing lost, nothing reordered, nothing shown twice unless a kill cut it off
    shown: list[tuple] = []
    for messages, _ in runs:
        for m in messages:
            if m["t"] == "show" and (m["g"], m["seq"]) not in {(g, q) for g, q, _e in shown}:
                shown.append((m["g"], m["seq"], m["events"]))
    assert shown == ref_shows
    later: set[tuple] = set()
    for messages, was_killed in reversed(runs):
        keys = [(m["g"], m["seq"]) for m in messages if m["t"] == "show"]
        assert len(keys) == len(set(keys)), "shown twice within one run"
        finished = keys[:-1] if was_killed else keys  # a killed run's last one may have been cut off
        again = [k for k in finished if k in later]
        assert not again, f"shown again after a restart although fully announced: {again}"
        later |= set(keys)

    # the saved evening is the reference evening, byte for byte (setup, actions, events, counts, marks)
    assert _dump(state) == _dump(tmp_path / "reference")
    assert runs[-1][0][-1] == reference[-1]  # the evening's counts


if __name__ == "__main__":
    sys.exit(play_evening(Path(sys.argv[1])))
