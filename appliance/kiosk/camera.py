"""The camera pipeline of the kiosk: frames -> settle detector (which calls the dice reader) -> one
settled reading per throw, plus the latest frame and its dice for the live view.

:class:`CameraPipeline` does one frame per :meth:`~CameraPipeline.step` and never raises for a camera
fault (it becomes the status line; the detector is interrupted so a frame from before the fault never
makes a roll). The headless demo steps it itself, deterministically; the kiosk and the demo window run
it in a :class:`CameraWorker` thread so the UI loop never waits for a camera or the reader.
Settled readings leave through ``on_settled`` (the kiosk puts a ``settled`` command on its queue).

A camera fault shows as a short status in the kiosk's language, chosen by the fault's ``kind``
(``appliance.kiosk.words.camera_fault``); its English detail (device, retry) goes to the journal
once, when the fault begins or changes kind, and the journal says when frames come again. So does
an exception no camera source is meant to raise (a driver's RuntimeError, an OSError EIO from a USB
camera pulled out): its kind is the exception's type, the status the general "camera problem", and
its traceback is in the journal once per kind, not at every frame. A reader that fails on frames is
said the same way.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from concurrent.futures import Future
from typing import Callable

from appliance.i18n import _
from appliance.kiosk.words import camera_fault, unreadable_reason
from vision.reading import DiceReading, unreadable
from vision.settle import TrayOutsideFrame

log = logging.getLogger(__name__)

_KEEP = object()  # _set_status: leave the live view's frame as it is


class CameraPipeline:
    """One camera and its settle detector.

    source: a ``vision.sources`` frame source (``read() -> Frame``, ``close()``).
    detector: a ``vision.settle.SettleDetector`` (it holds the reader and the expected dice count).
    on_settled: called with each settled ``DiceReading`` (from the thread that calls ``step``).
    state: the settle detector's state of the latest frame ("moving", "still", "empty", ...), or
    "no_tray" while the tray area lies outside the picture (nothing in it can be judged).

    Thread-safe: ``expect``, ``reread``, ``call`` and ``feed`` may be called from the UI thread
    while another thread steps.
    """

    def __init__(self, source, detector, on_settled: Callable[[DiceReading], None]) -> None:
        self.source = source
        self.detector = detector
        self.on_settled = on_settled
        self._lock = threading.Lock()
        self._calls: list[Callable] = []
        self._frame = None
        self._settled = (None, None)
        self._dice: tuple = ()
        self._ok = True
        self._fault = False  # the status line says a camera or reader fault
        self._camera = FaultJournal("camera", "frames again after the fault")
        self._reader = FaultJournal("reader", "reads again after the fault")
        self.failing = False  # the source raised what no source should: the worker waits a little
        self._status = _("Camera starting…")
        self.state = "moving"
        self.frames = 0
        self.ended = False  # a file or folder source has no more frames (until a frame comes again)

    # -- from the UI thread ---------------------------------------------------------------------

    def expect(self, dice: int | None) -> None:
        """The number of dice the game expects now (None: no roll expected)."""
        with self._lock:
            self._calls.append(lambda: setattr(self.detector, "expected", dice))

    def reread(self) -> None:
        """Read the dice lying now once more and report them even if they were reported before
        (the table took the last roll back because the camera misread it)."""
        with self._lock:
            self._calls.append(self.detector.forget)

    def resumed(self, roll) -> None:
        """A saved game continued after a restart: ``roll`` (an ok ``DiceReading``) is the last one
        this camera settled before it; its dice still lying there are no new throw
        (``SettleDetector.resumed``)."""
        with self._lock:
            self._calls.append(lambda: self.detector.resumed(roll))

    def call(self, fn: Callable) -> None:
        """Run ``fn(source)`` in the stepping thread before the next frame (e.g. the demo's
        ``table.throw(values)``: the source is only ever touched by one thread)."""
        with self._lock:
            self._calls.append(lambda: fn(self.source))

    def calibrate(self, tray, reference) -> None:
        """Read with a new tray area ((x, y, w, h) px or None) and empty-tray reference ((H, W, 3)
        uint8 BGR or None) from the next frame on (the guided setup's)."""
        with self._lock:
            self._calls.append(lambda: self.detector.calibrate(tray, reference))

    def exposure(self, action: str, values: dict | None = None) -> Future:
        """Ask the camera, in the stepping thread, to let its exposure and white balance settle
        (``action`` "auto"), to lock them ("lock": the future's result is the values locked,
        JSON-able) or to use ``values`` an earlier "lock" gave ("use"). The future fails with
        ``vision.sources.ExposureUnsupported`` when the source has no exposure to lock (a folder, a
        video, the synthetic table), or with the camera's fault."""
        from vision.sources import ExposureUnsupported

        future: Future = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            fn = getattr(self.source, f"{action}_exposure", None)
            try:
                if fn is None:
                    raise ExposureUnsupported(f"{type(self.source).__name__} has no exposure to lock")
                future.set_result(fn(values) if action == "use" else fn())
            except Exception as exc:  # the guided setup says it; the frames go on
                future.set_exception(exc)
        with self._lock:
            self._calls.append(run)
        return future

    @property
    def last_settled(self):
        """(the (H, W, 3) uint8 BGR frame, its ``DiceReading``) of the latest settled throw, or
        (None, None) before the first."""
        with self._lock:
            return self._settled

    @property
    def gives_no_picture(self) -> bool:
        """Whether the camera gives no picture now (a fault the status line says, or a file or
        folder at its end): reading the dice again cannot help until it does."""
        with self._lock:
            return self.ended or (not self._ok and self._frame is None)

    @property
    def fault(self) -> str:
        """The fault going on, in the journal's English for the service's status line: "camera
        missing", "reader failure", "no more frames", or "" while frames come and are read."""
        for journal in (self._camera, self._reader):
            if journal.kind:
                return f"{journal.what} {journal.kind.replace('_', ' ')}"
        return "no more frames" if self.ended else ""

    def feed(self):
        """The live view's data: (frame or None, dice of the latest reading, reading ok?, status)."""
        with self._lock:
            return self._frame, self._dice, self._ok, self._status

    # -- the stepping thread --------------------------------------------------------------------

    def step(self) -> DiceReading | None:
        """Read one frame and run the detector on it; returns the settled reading it completed, if
        any. Camera faults and the end of a file become the status line and return None."""
        self._run_calls()
        frame = self._read()
        if frame is None:
            return None
        self.frames += 1
        try:
            update = self.detector.update(frame.image, frame.t, frame.index)
        except TrayOutsideFrame as exc:  # the picture is fine: shown, so the setup can find the tray in it
            self._reader.fault("tray", f"frame {frame.index}: {exc}")
            self.detector.interrupt()
            self.state = "no_tray"  # neither moving nor still: nothing can be judged in the area
            self._set_status(_("The tray area lies outside the picture: set up the tray again"), ok=False,
                             frame=frame.image)
            return None
        except Exception as exc:  # a reader bug must not stop the camera
            self._reader.fault(type(exc).__name__, f"the settle detector failed on frame {frame.index}: {exc}", exc)
            self.detector.interrupt()
            # The frame itself may be the garbage the reader choked on: the live view shows no picture.
            failed = unreadable(f"reader failure ({type(exc).__name__})", kind="failure")
            self._set_status(_("Cannot read: {reason}").format(reason=unreadable_reason(failed)), ok=False, frame=None)
            return None
        self._reader.over()
        self.state = update.state
        self._show(frame, update)
        if update.settled is not None:
            with self._lock:  # for a hand correction of this throw (appliance.teaching.keep_correction)
                self._settled = (frame.image, update.settled.reading)
            self.on_settled(update.settled.reading)
            return update.settled.reading
        return None

    def _run_calls(self) -> None:
        """What other threads asked to run here (``call``), in order."""
        with self._lock:
            calls, self._calls = self._calls, []
        for fn in calls:
            try:
                fn()
            except Exception:
                log.exception("camera pipeline call failed")

    def _read(self):
        """The next frame, or None (the status line says why: a camera fault, the end of a file)."""
        from vision.sources import CameraError, EndOfFrames, SourceClosed

        self.failing = False
        try:
            frame = self.source.read()
        except EndOfFrames as exc:
            if not self.ended:
                log.warning("the camera's frames ended: %s", exc)  # e.g. none of a folder's images can be read
            self.ended = True
            self._set_status(_("No more frames"), ok=False)
            return None
        except (CameraError, SourceClosed) as exc:
            self.detector.interrupt()
            kind = getattr(exc, "kind", None) or ("closed" if isinstance(exc, SourceClosed) else type(exc).__name__)
            self._camera.fault(kind, str(exc))
            self._set_status(camera_fault(kind), ok=False, frame=None)
            return None
        except Exception as exc:  # what no source should raise: a driver's own error, an OSError EIO
            self.detector.interrupt()
            self.failing = True
            self._camera.fault(_unexpected(exc), f"{type(exc).__name__}: {exc}", exc)
            self._set_status(camera_fault("failing"), ok=False, frame=None)
            return None
        self._camera.over()
        if self.ended:  # a folder refilled: frames at full pace again, and the dice can be read again
            log.info("the camera's frames come again")
            self.ended = False
        return frame

    def _show(self, frame, update) -> None:
        """The live view's picture, dice and status line for this frame."""
        # Once the still scene is settled, the live view shows what it was settled as: this frame's
        # own reading may be one of the noisy ones the settle detector outvoted.
        shown = getattr(self.detector, "locked", None) or update.reading
        with self._lock:
            self._frame = frame.image
            if self._fault:  # frames come and the reader takes them again: the fault is over
                self._dice, self._ok, self._status, self._fault = (), True, "", False
            if update.state == "moving":
                self._dice, self._ok, self._status = (), True, _("Dice moving…")
            elif shown is not None and shown.kind == "no_dice":
                # Nothing that looks like a die (the Mäxle cup is down, a hand, an empty tray): no fault.
                self._dice, self._ok, self._status = (), True, _("No dice in view")
            elif shown is not None:
                r = shown
                self._dice, self._ok = r.dice, r.ok
                self._status = " ".join(str(v) for v in sorted(r.values, reverse=True)) if r.ok else \
                    _("Cannot read: {reason}").format(reason=unreadable_reason(r))
            elif update.state == "empty":
                self._dice, self._ok, self._status = (), True, _("Tray empty")

    def _set_status(self, text: str, ok: bool, frame=_KEEP) -> None:
        with self._lock:
            self._status, self._ok, self._fault = text, ok, not ok
            self._dice = ()
            if frame is not _KEEP:  # an identity test: a frame is an array, ``!=`` would compare pixels
                self._frame = frame

    def close(self) -> None:
        """Release the camera."""
        try:
            self.source.close()
        except Exception:
            log.exception("closing the camera")


def _unexpected(exc: BaseException) -> str:
    """The kind of an unexpected camera exception: its type, and its errno if it has one."""
    number = getattr(exc, "errno", None)
    return type(exc).__name__ + (f" {errno.errorcode.get(number, number)}" if number else "")


class FaultJournal:
    """The journal of one part's faults (``what``: "camera", "reader"): a line when a fault begins or
    changes kind, nothing while it goes on, and ``back`` once it is over. An exception's traceback
    goes with the line the first time its kind is seen only."""

    def __init__(self, what: str, back: str) -> None:
        self.what, self.back = what, back
        self.kind = ""  # the fault going on ("" none)
        self._traced: set[str] = set()

    def fault(self, kind: str, detail: str, exc: BaseException | None = None) -> None:
        """A fault of ``kind`` (its English ``detail`` for the journal; ``exc`` for its traceback)."""
        if kind == self.kind:
            return
        self.kind = kind
        trace = exc is not None and kind not in self._traced
        if trace:
            self._traced.add(kind)
        log.log(logging.ERROR if exc is not None else logging.WARNING, "%s fault (%s): %s", self.what, kind, detail,
                exc_info=exc if trace else None)

    def over(self) -> None:
        """The part works again (said once, if a fault was going on)."""
        if self.kind:
            log.info("%s: %s (%s)", self.what, self.back, self.kind)
            self.kind = ""


class CameraWorker:
    """Steps a :class:`CameraPipeline` in a daemon thread until :meth:`stop`.

    pace_fps: for sources that do not wait for the next frame themselves (the synthetic table, a
    folder): at most this many steps per second. Live cameras wait in ``read`` (pace_fps None).
    """

    def __init__(self, pipeline: CameraPipeline, *, pace_fps: float | None = None) -> None:
        self.pipeline = pipeline
        self.pace_fps = pace_fps
        self._stop = threading.Event()
        self._bugs = FaultJournal("camera pipeline", "steps again after the fault")
        self._thread = threading.Thread(target=self._run, name="camera-pipeline", daemon=True)

    def start(self) -> "CameraWorker":
        self._thread.start()
        return self

    def _run(self) -> None:
        period = 1.0 / self.pace_fps if self.pace_fps else 0.0
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.pipeline.step()
            except Exception as exc:  # never let the thread die: the table would lose its camera silently
                self._bugs.fault(type(exc).__name__, str(exc), exc)
                self._stop.wait(0.5)
                continue
            self._bugs.over()
            if self.pipeline.ended:
                self._stop.wait(0.2)
            elif self.pipeline.failing:  # a source that fails at once must not make this loop spin
                self._stop.wait(0.5)
            elif period:
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))

    def stop(self) -> None:
        """Stop stepping (waits up to 2 s for the current step) and release the camera."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
        self.pipeline.close()
