"""The guided setup's saved state: how far it got, what it found, and what wins over the config.

The kiosk's guided setup (``appliance.kiosk.screens.guided``) has four steps, each of which can be
skipped: the tray area, the camera's light (exposure and white balance locked), the empty-tray
reference, and teaching the table its dice. Everything it does is kept in the store as it goes, one
commit per step, so a pulled plug loses at most the step that was showing, which comes back:

- ``PROGRESS``: the step showing (or "done") and each step's result ("confirmed", "locked",
  "taken", "taught" or "skipped"), and for the teach step the newest taught throw before it began;
- ``TRAY``: the tray area found and confirmed, with the config's ``[tray] area``, the camera's
  source and frame size at that moment (``tray_stamp``: the area is in px of that camera's frame);
- ``EXPOSURE``: the camera's locked exposure and white balance, with the config's camera at that
  moment (its source, size and ``exposure``);
- ``REFERENCE``: the empty tray, a picture (``Store.save_image``), with the config's camera it was
  taken with (``REFERENCE_CAMERA``): another camera's is not used.

What wins, as with the language button: the setup's tray area and light lock win over the config,
unless the config's own value was changed after the setup (then the config's, and the setup's is
forgotten). A step skipped keeps what was in force. The taught throws are the store's taught dice
(``appliance.teaching``), as hand corrections are.

Pure functions of the store (``appliance.store.Store``); no camera, no screen.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

STEPS = ("tray", "exposure", "reference", "teach")
DONE = "done"
PROGRESS, TRAY, EXPOSURE, REFERENCE = "guided_setup", "guided_tray", "guided_exposure", "reference"
REFERENCE_CAMERA = "reference_camera"  # the config's camera the empty tray was taken with (``camera_stamp``)
TEACH_THROWS = 6  # throws the teach step asks for (the adaptation needs vision.adapt.MIN_THROWS at least)

Area = tuple[int, int, int, int]


@dataclass
class Progress:
    """How far the guided setup got. step: one of STEPS, or DONE; results: step -> what came of it
    ("confirmed", "locked", "taken", "taught", "skipped"); first_throw: the newest taught throw's id
    when the teach step began (-1: it has not begun), so the throws taught in it are counted;
    dice: how many dice the players throw in the teach step, once they chose another number (0:
    not chosen, the game's), so that it survives a pulled plug; goal: the throws taught in the
    teach step after which the table learns by itself (TEACH_THROWS, more after "Teach more
    throws")."""

    step: str = STEPS[0]
    results: dict[str, str] = field(default_factory=dict)
    first_throw: int = -1
    dice: int = 0
    goal: int = TEACH_THROWS

    @property
    def done(self) -> bool:
        """Whether the setup was finished (or left)."""
        return self.step == DONE

    def to_text(self) -> str:
        """The store's text of it."""
        return json.dumps({"step": self.step, "results": self.results, "first_throw": self.first_throw,
                           "dice": self.dice, "goal": self.goal})

    @classmethod
    def from_text(cls, text: str | None) -> Progress | None:
        """The progress saved as ``text``; None when there is none or it does not parse (the setup
        then starts afresh: it changes nothing before a step is confirmed)."""
        try:
            data = json.loads(text) if text else None
            step = data["step"]
            if step not in STEPS + (DONE,):
                raise ValueError(step)
            results = {str(k): str(v) for k, v in dict(data.get("results", {})).items() if k in STEPS}
            dice = int(data.get("dice", 0))
            goal = max(TEACH_THROWS, int(data.get("goal", TEACH_THROWS)))
            return cls(step, results, int(data.get("first_throw", -1)), dice if 1 <= dice <= 6 else 0, goal)
        except (ValueError, TypeError, KeyError, AttributeError):
            if text:
                log.warning("the guided setup's saved progress does not parse: it starts afresh")
            return None


def progress(store) -> Progress | None:
    """The guided setup's progress in ``store``; None when it was never begun (or does not parse)."""
    return Progress.from_text(store.setting(PROGRESS)) if store is not None else None


def due(store) -> bool:
    """Whether the kiosk opens the guided setup at its start: never begun (a first boot), or left
    mid-way by a pulled plug. False without a store (the demo: it is a menu button away)."""
    if store is None:
        return False
    saved = progress(store)
    return saved is None or not saved.done


def save_progress(store, p: Progress, **more: str) -> None:
    """Keep ``p`` and the settings ``more`` in one commit."""
    store.save_settings({PROGRESS: p.to_text(), **more})


def tray_stamp(configured: Area | None, size, source=None) -> list:
    """What of the config a confirmed tray area depends on: its ``[tray] area``, the camera's frame
    ``size`` (W, H) px, the area's px, and the camera's ``source`` (another camera sees the tray
    elsewhere)."""
    return [None if configured is None else list(configured), list(size), None if source is None else str(source)]


def tray_text(area: Area, stamp: list) -> str:
    """The store's text of a confirmed tray ``area`` and the config it was confirmed under (``tray_stamp``)."""
    return json.dumps({"area": list(area), "config": stamp})


def exposure_text(values: dict, configured: str) -> str:
    """The store's text of a light lock (``values`` as the camera gave them) and the config's camera
    then (``camera_stamp``)."""
    return json.dumps({"values": values, "config": configured})


def camera_stamp(source, size, exposure) -> str:
    """What of the config a light lock depends on: the camera's source, frame size and ``exposure``."""
    return json.dumps([str(source), list(size), exposure])


def _chosen(store, key: str, configured, older=None):
    """The setup's saved choice under ``key`` when the config's value is still the one it was made
    under (``configured``, or ``older``: the same as an earlier version stamped it); else None, and a
    changed config forgets it (as the language button's)."""
    text = store.setting(key) if store is not None else None
    try:
        saved = json.loads(text) if text else None
    except ValueError:
        saved = None
    if not isinstance(saved, dict):
        return None
    if saved.get("config") not in (configured, older):
        log.info("guided setup: the config changed since the setup (%s): the config's wins", key)
        try:
            store.save_settings({key: ""})
        except Exception:
            log.exception("could not forget the setup's %s", key)
        return None
    return saved


def tray_area(store, configured: Area | None, size, source=None) -> Area | None:
    """The tray area the table reads with: the setup's confirmed one, unless the config's ``[tray]
    area`` (``configured``), the camera's frame ``size`` (W, H) or its ``source`` changed since;
    else ``configured`` (None: the whole frame, or the trial table's own)."""
    stamp = tray_stamp(configured, size, source)
    saved = _chosen(store, TRAY, stamp, older=stamp[:2])  # stamped before the source was: kept
    area = saved.get("area") if saved else None
    if isinstance(area, list) and len(area) == 4 and all(isinstance(v, int) and v >= 0 for v in area):
        return tuple(area)
    return configured


def exposure(store, configured: str) -> dict | None:
    """The light lock the camera opens with: the setup's, unless the config's camera (``configured``,
    ``camera_stamp``) changed since; else None (the config's exposure)."""
    saved = _chosen(store, EXPOSURE, configured)
    values = saved.get("values") if saved else None
    return values if isinstance(values, dict) and values else None


def reference(store, camera: str | None = None):
    """The empty tray the setup took ((H, W, 3) uint8 BGR), or None: also when it was taken with
    another camera (``camera``: the config's camera now, ``camera_stamp``; one taken before the
    camera was kept with it is used). A frame of another size is ignored by the reader and the
    settle detector."""
    if store is None:
        return None
    taken_with = store.setting(REFERENCE_CAMERA)
    if camera is not None and taken_with and taken_with != camera:
        log.info("guided setup: the empty tray was taken with another camera: not used")
        return None
    return store.image(REFERENCE)
