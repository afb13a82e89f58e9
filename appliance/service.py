"""Talking to systemd from the kiosk: readiness, status line and the watchdog (sd_notify protocol).

``systemd/dicetable.service`` is ``Type=notify`` with ``WatchdogSec=``: systemd waits for READY=1
before the unit counts as started, and restarts the service when the watchdog is not fed in time.
The kiosk feeds it from its UI loop and from nowhere else, so a frozen screen (a hung frame, a
deadlock) is restarted, while a lost camera is not: the UI loop keeps running and shows "camera
lost" until the camera is back. Use::

    svc = Service()
    ...                                # open store, camera, screen
    svc.ready("Mäxle, 3 players")      # once the first frame is on screen
    while running:
        ...draw one frame...
        svc.tick()                     # every frame: cheap, sends WATCHDOG=1 at most every timeout/3
    svc.stopping()

Outside systemd (no $NOTIFY_SOCKET: tests, the demo, a terminal) every call does nothing.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, Mapping, Protocol


class Notifier(Protocol):
    """Anything with ``notify(state: str)``: sdnotify.SystemdNotifier, or a fake in tests."""

    def notify(self, state: str) -> None: ...


class Service:
    """The kiosk's line to systemd.

    notifier: default ``sdnotify.SystemdNotifier()`` (silent without $NOTIFY_SOCKET).
    env: where $NOTIFY_SOCKET, $WATCHDOG_USEC and $WATCHDOG_PID are read (default os.environ).
    clock: monotonic seconds (default time.monotonic).
    """

    def __init__(self, notifier: Notifier | None = None, env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        env = os.environ if env is None else env
        self.enabled = bool(env.get("NOTIFY_SOCKET")) or notifier is not None
        if notifier is None:
            notifier = _Utf8Notifier()
        self._notifier = notifier
        self._clock = clock
        self.watchdog_s = _watchdog_timeout(env)
        # Feed three times per timeout: one late frame (a slow redraw, a GC pause) never trips it.
        self._interval = self.watchdog_s / 3 if self.watchdog_s else None
        self._last_ping = float("-inf")
        self._status = ""  # the status line last sent
        self._ready = False

    def _send(self, state: str) -> None:
        if self.enabled:
            self._notifier.notify(state)

    def ready(self, status: str | None = None) -> None:
        """The kiosk is up (the first screen is drawn): READY=1, with an optional status line."""
        self._send("READY=1" + (f"\nSTATUS={_one_line(status)}" if status else ""))
        self._ready, self._status = True, _one_line(status) if status else self._status
        self._last_ping = self._clock()

    def status(self, text: str) -> None:
        """The one-line status ``systemctl status dicetable`` shows (e.g. "camera lost"); sent only
        when it changed, so it can be given every frame, and not before ``ready`` (which sends its own:
        READY=1 is the first word systemd hears)."""
        text = _one_line(text)
        if self._ready and text != self._status:
            self._status = text
            self._send(f"STATUS={text}")

    def tick(self) -> bool:
        """Call once per UI frame. Sends WATCHDOG=1 when a third of the watchdog timeout has passed
        since the last one; returns True when it did. Costs one clock read otherwise."""
        if self._interval is None:
            return False
        now = self._clock()
        if now - self._last_ping < self._interval:
            return False
        self._last_ping = now
        self._send("WATCHDOG=1")
        return True

    def stopping(self, status: str | None = None) -> None:
        """The kiosk is shutting down on purpose (SIGTERM, the menu): STOPPING=1."""
        self._send("STOPPING=1" + (f"\nSTATUS={_one_line(status)}" if status else ""))

    def fail(self, message: str, exit_status: int) -> int:
        """Report a fatal problem the service cannot fix by restarting (a bad config file): the
        message goes to stderr (the journal) and to the unit's status line; returns ``exit_status``
        for the caller to exit with (listed in the unit's RestartPreventExitStatus=)."""
        print(message, file=sys.stderr, flush=True)
        self._send(f"STATUS={_one_line(message)}")
        return exit_status


class _Utf8Notifier:
    """sdnotify.SystemdNotifier, sending UTF-8 as systemd reads it.

    sdnotify encodes the state as Latin-1 and silently drops a message it cannot encode: a Latvian or
    Russian status line would lose the READY=1 sent with it, and systemd would restart the kiosk after
    its start timeout. Handing sdnotify the UTF-8 bytes as Latin-1 characters sends exactly those bytes.
    """

    def __init__(self) -> None:
        import sdnotify

        self._notifier = sdnotify.SystemdNotifier()

    def notify(self, state: str) -> None:
        self._notifier.notify(state.encode("utf-8").decode("latin-1"))


def _watchdog_timeout(env: Mapping[str, str]) -> float | None:
    """The watchdog timeout in s that systemd set for this process, or None when there is none."""
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):  # meant for another process (we were forked or exec'd)
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1e6 if value > 0 else None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:200]
