"""A live camera behind a reader thread that owns every camera fault, and the device interface it drives."""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections import deque
from concurrent.futures import Future
from typing import Callable, Protocol

import numpy as np

from vision.frames import (CameraError, CameraFrozen, CameraMissing, CameraTimeout, ExposureUnsupported, Frame,
                           FrameError, SourceClosed, normalise)

log = logging.getLogger(__name__)


class Device(Protocol):
    """A live camera as ``LiveCamera`` drives it (from its reader thread only)."""

    def read(self) -> tuple[np.ndarray, float | None]:
        """Blocks for the next frame: (image as the device gives it, capture time on the
        ``time.monotonic`` clock in s or None). Raises on any fault."""
        ...

    def close(self) -> None:
        """Releases the camera."""
        ...


class LiveCamera:
    """A live camera read by a background thread; every camera fault stays in here.

    open_device: makes and opens the device (``OpenCVDevice``, ``PiCamera2Device``, or a fake in
        tests); it raises when the camera is not there. order: the device's channel order.
    timeout: the longest ``read()`` waits, s. Frames older than ``max_age`` s are never returned.
    frozen_after: this many bit-identical frames in a row (the first and its repeats) mean the
        camera froze (real sensors always have noise): the repeats are dropped, the camera reopened.
    stale_after: after this long without a frame, frames that arrive back to back (under 0.4 of the
        usual frame interval apart) were buffered during the pause: up to ``max_drain`` are dropped.
    backoff: (first, longest) wait in s between reopening attempts, doubling after each failure.

    ``read()`` returns each frame at most once, the newest, with its capture time (the device's
    timestamp when it has one, else the arrival time) on the ``time.monotonic`` clock. It raises
    CameraMissing while the camera cannot be opened, CameraFrozen while it repeats one frame, a
    CameraError of kind "lost" or "bad_frames" while the device fails or gives garbage, and
    CameraTimeout when no fresh frame comes within the timeout; ``status`` says the same in English.
    Nothing here blocks the caller longer than ``timeout``.

    Exposure and white balance (the guided setup): ``auto_exposure``, ``lock_exposure`` and
    ``use_exposure`` run the device's own (``PiCamera2Device``, ``OpenCVDevice``) in the reader
    thread, between two frames; a device without them raises ExposureUnsupported. The lock in use
    (``exposure``: given, or the last one locked) is applied again whenever the camera is reopened;
    when applying it fails, ``exposure_problem`` says why.

    An exception the device was not meant to raise (a driver's RuntimeError, an OSError EIO from a
    USB camera pulled out) is a fault like the others (missing at open, "lost" while reading); its
    traceback goes to the log once per exception type, not at every retry.
    """

    def __init__(self, open_device: Callable[[], Device], *, name: str = "camera", order: str = "bgr",
                 timeout: float = 1.0, max_age: float = 0.5, frozen_after: int = 5, stale_after: float = 0.3,
                 max_drain: int = 8, backoff: tuple[float, float] = (0.5, 8.0),
                 clock: Callable[[], float] = time.monotonic, exposure: dict | None = None):
        self.name = name
        self.exposure = exposure
        self.exposure_problem = ""
        self._controls: deque[tuple[str, tuple, Future]] = deque()  # device calls for the reader thread
        self.order = order
        self.timeout = timeout
        self.max_age = max_age
        self.frozen_after = frozen_after
        self.stale_after = stale_after
        self.max_drain = max_drain
        self.backoff = backoff
        self._open = open_device
        self._clock = clock
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._returned = -1
        self._index = 0
        self._fault: CameraError | None = None
        self._published_since_open = False
        self._stop = threading.Event()
        self.dropped = {"frozen": 0, "stale": 0, "bad": 0}  # frames kept from the caller, by reason
        self.faults: deque[CameraError] = deque(maxlen=20)  # the latest faults, oldest first
        self.reconnects = 0
        self._traced: set[type] = set()  # the unexpected exception types whose traceback was logged
        self._thread = threading.Thread(target=self._run, name=f"{name}-reader", daemon=True)
        self._thread.start()

    # -- the reader thread ---------------------------------------------------------------------

    def _set_fault(self, fault: CameraError | None) -> None:
        with self._cond:
            self._fault = fault
            if fault is not None:
                self.faults.append(fault)
            self._cond.notify_all()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                device = self._open()
            except Exception as exc:  # whatever the driver raises: the camera is not there
                if not isinstance(exc, CameraMissing):
                    self._trace(exc, "opening it")
                failures += 1
                wait = min(self.backoff[1], self.backoff[0] * 2 ** (failures - 1))
                msg = exc if isinstance(exc, CameraMissing) else f"{type(exc).__name__}: {exc}"
                self._set_fault(CameraMissing(f"{self.name}: {msg}; retrying in {wait:.1f} s"))
                self._stop.wait(wait)
                continue
            if self.exposure is not None:  # the lock in use outlives a reconnection
                self._call(device, "use_exposure", (self.exposure,), Future())
            try:
                fault = self._pump(device)
            finally:
                try:
                    device.close()
                except Exception:
                    pass
            if self._published_since_open:
                failures = 0  # it worked for a while: start the backoff afresh
            if fault is not None and not self._stop.is_set():
                failures += 1
                self.reconnects += 1
                wait = min(self.backoff[1], self.backoff[0] * 2 ** (failures - 1))
                self._set_fault(fault.again(f"{fault}; reconnecting in {wait:.1f} s"))
                self._stop.wait(wait)

    def _pump(self, device: Device) -> CameraError | None:
        """Reads frames until a fault (returned) or ``close()``."""
        self._published_since_open = False
        previous: np.ndarray | None = None
        same = 0
        bad = 0
        last_arrival = self._clock()
        intervals: deque[float] = deque(maxlen=15)
        draining = 0
        while not self._stop.is_set():
            self._run_controls(device)
            try:
                raw, stamp = device.read()
            except TimeoutError as exc:
                return CameraTimeout(f"{self.name}: no frame within the timeout ({exc or 'timed out'})")
            except CameraError as exc:  # a device that knows what went wrong keeps its kind
                return exc.again(f"{self.name}: {exc}")
            except Exception as exc:
                self._trace(exc, "reading a frame")
                return CameraError(f"{self.name}: {type(exc).__name__}: {exc}")
            now = self._clock()
            gap, last_arrival = now - last_arrival, now
            try:
                image = normalise(raw, self.order)
            except FrameError as exc:
                self.dropped["bad"] += 1
                bad += 1
                if bad >= self.frozen_after:
                    return CameraError(f"{self.name}: gives frames that are not images ({exc})", kind="bad_frames")
                continue
            bad = 0
            if previous is not None and image.shape == previous.shape and np.array_equal(image, previous):
                same += 1
                self.dropped["frozen"] += 1
                if same + 1 >= self.frozen_after:
                    return CameraFrozen(f"{self.name}: the picture is frozen (unplugged?)")
                continue
            same = 0
            previous = image
            usual = statistics.median(intervals) if intervals else None
            if gap > self.stale_after and usual is not None:
                draining = self.max_drain
            elif draining and usual is not None and gap >= 0.4 * usual:
                draining = 0  # this one was waited for: live again
            if draining:
                draining -= 1
                self.dropped["stale"] += 1
                continue
            if gap <= self.stale_after:
                intervals.append(gap)
            t = stamp if stamp is not None and abs(now - stamp) < 60 else now
            if now - t > self.max_age:
                self.dropped["stale"] += 1
                continue
            with self._cond:
                self._latest = Frame(image, t, self._index)
                self._index += 1
                self._fault = None
                self._published_since_open = True
                self._cond.notify_all()
        return None

    def _trace(self, exc: Exception, doing: str) -> None:
        """Log the traceback of an exception the device was not meant to raise, once per type."""
        if type(exc) not in self._traced:
            self._traced.add(type(exc))
            log.error("%s: %s while %s (its traceback, once)", self.name, type(exc).__name__, doing, exc_info=exc)

    def _run_controls(self, device: Device) -> None:
        """The device calls asked for since the last frame, in order (the reader thread's own turn)."""
        while self._controls:
            name, args, future = self._controls.popleft()
            if future.set_running_or_notify_cancel():
                self._call(device, name, args, future)

    def _call(self, device: Device, name: str, args: tuple, future: Future) -> None:
        fn = getattr(device, name, None)
        try:
            if fn is None:
                raise ExposureUnsupported(f"{self.name} cannot fix its exposure and white balance")
            future.set_result(fn(*args))
        except Exception as exc:  # the caller hears it; the frames go on
            if name == "use_exposure":
                self.exposure_problem = f"{self.name}: the locked exposure could not be applied: {exc}"
            future.set_exception(exc)

    # -- the caller's side ---------------------------------------------------------------------

    def _control(self, name: str, *args, wait: bool = True):
        """``device.<name>(*args)`` in the reader thread before its next frame; its result (or its
        exception), waiting at most the timeout and a second (CameraTimeout: no camera to ask)."""
        future: Future = Future()
        self._controls.append((name, args, future))
        if not wait:
            return None
        try:
            return future.result(timeout=self.timeout + 1.0)
        except TimeoutError:
            future.cancel()
            raise CameraTimeout(f"{self.name}: no frame came to {name.replace('_', ' ')} with") from None

    def auto_exposure(self) -> None:
        """Auto exposure and white balance on (they settle within a second or two). Raises
        ExposureUnsupported, CameraTimeout or what the device raised."""
        self._control("auto_exposure")

    def lock_exposure(self) -> dict:
        """Fix exposure and white balance where auto has brought them; returns the values (JSON-able,
        the device's own keys), kept as ``exposure`` for reconnections. Raises as ``auto_exposure``."""
        values = self._control("lock_exposure")
        self.exposure = values
        return values

    def use_exposure(self, values: dict) -> None:
        """Fix exposure and white balance at ``values`` (a lock saved before) from the next frame on,
        and after every reconnection; does not wait."""
        self.exposure = dict(values)
        self._control("use_exposure", self.exposure, wait=False)

    @property
    def status(self) -> str:
        """"ok" or what is wrong with the camera, e.g. "camera: no camera at device 0; retrying in 2.0 s"."""
        with self._cond:
            if self._fault is not None:
                return str(self._fault)
            if self._latest is None:
                return f"{self.name}: starting"
            age = self._clock() - self._latest.t
            return "ok" if age <= self.timeout else f"{self.name}: no frame for {age:.1f} s"

    def read(self, timeout: float | None = None) -> Frame:
        """The newest frame not returned before, waiting at most ``timeout`` s (default: the
        source's). Raises CameraMissing, CameraFrozen, CameraError or CameraTimeout, SourceClosed."""
        if self._stop.is_set():
            raise SourceClosed(f"{self.name} is closed")
        wait = self.timeout if timeout is None else timeout
        deadline = self._clock() + wait

        def fresh() -> bool:
            f = self._latest
            return f is not None and f.index > self._returned and self._clock() - f.t <= self.max_age

        with self._cond:
            while not fresh():
                left = deadline - self._clock()
                if left <= 0 or self._stop.is_set():
                    break
                self._cond.wait(min(left, 0.05))
            if fresh():
                self._returned = self._latest.index
                return self._latest
            fault = self._fault
        if self._stop.is_set():
            raise SourceClosed(f"{self.name} is closed")
        if fault is not None:
            raise fault.again(str(fault))
        raise CameraTimeout(f"{self.name}: no new frame within {wait:.2f} s")

    def close(self) -> None:
        """Stops the reader thread (waiting at most the timeout) and releases the camera."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(self.timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
