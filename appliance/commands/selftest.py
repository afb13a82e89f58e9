"""Check the appliance's parts one by one: config, camera, display driver, GPIO, state directory and
fonts. One line each ("ok", "warn", "FAIL" or "skip", the part, what was found); the exit status is
1 when anything failed, 0 otherwise (a warning, e.g. a saved-games file the kiosk will move aside,
does not stop the appliance).

Run it on the Pi as the service user, with the service stopped (it holds the camera and the screen):
first `sudo systemctl stop dicetable`, then `sudo -u dicetable /opt/dicetable/venv/bin/dicetable
selftest`.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Callable

from appliance import config as config_mod
from appliance.commands import argtypes
from appliance.commands.text import counted

CHECKS = ("config", "camera", "display", "gpio", "state", "fonts")
# Every letter the four languages need, so a font that lacks one fails here rather than on the table.
FONT_SAMPLE = "Mäxle ß Ü Biskvīts āčēģīķļņšūž Яхта ёЁ 1-6 ×·→"
MIN_FREE_MB = 20


class Failed(Exception):
    """A check found a problem; the message says what and, where it can, what to do."""


class Skipped(Exception):
    """A check that cannot run here; not a failure."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH",
                        help=f"the config file (default {config_mod.DEFAULT_PATH}, or built-in defaults if absent)")
    parser.add_argument("--only", metavar="CHECKS",
                        help=f"comma-separated checks to run, of: {', '.join(CHECKS)}")
    parser.add_argument("--camera-timeout", type=argtypes.positive(float), default=8.0, metavar="S",
                        help="how long to wait for the first camera frame, s (default 8)")


def run(args: argparse.Namespace) -> int:
    only = CHECKS if not args.only else tuple(c.strip() for c in args.only.split(",") if c.strip())
    unknown = [c for c in only if c not in CHECKS]
    if unknown:
        print(f"dicetable selftest: unknown check {', '.join(unknown)}; the checks are {', '.join(CHECKS)}",
              file=sys.stderr)
        return 2
    try:
        cfg = config_mod.load(args.config)
        config_result: tuple[str, str] = ("ok", _config_summary(cfg))
    except config_mod.ConfigError as exc:
        cfg = config_mod.defaults()
        config_result = ("FAIL", f"{exc} (the other checks use the defaults)")
    checks: dict[str, Callable[[], str]] = {
        "config": lambda: config_result,
        "camera": lambda: check_camera(cfg, args.camera_timeout),
        "display": lambda: check_display(cfg),
        "gpio": lambda: check_gpio(cfg),
        "state": lambda: check_state(cfg.state_dir),
        "fonts": lambda: check_fonts(cfg.drink_word),
    }
    failed = False
    for name in only:
        try:
            result = checks[name]()
            status, detail = result if isinstance(result, tuple) else ("ok", result)
        except Failed as exc:
            status, detail = "FAIL", str(exc)
        except Skipped as exc:
            status, detail = "skip", str(exc)
        except Exception as exc:  # a check must report, never crash the others
            status, detail = "FAIL", f"{type(exc).__name__}: {exc}"
        failed |= status == "FAIL"
        print(f"{status:<4}  {name:<7}  {' '.join(str(detail).split())}", flush=True)
    return 1 if failed else 0


def _config_summary(cfg: config_mod.Config) -> str:
    where = str(cfg.path) if cfg.path else f"built-in defaults ({config_mod.DEFAULT_PATH} absent)"
    return f"{where}: language {cfg.language}, camera {cfg.camera.source}, REVEAL on GPIO {cfg.gpio.reveal_pin}"


def check_camera(cfg: config_mod.Config, timeout_s: float) -> str:
    """One frame from the configured source within ``timeout_s``; raises Failed with the camera's
    own reason (missing, frozen, timed out, unreadable file)."""
    from vision.sources import CameraError, EndOfFrames, open_source

    spec = str(cfg.camera.source)
    if spec == "picamera" and importlib.util.find_spec("picamera2") is None:  # no 8 s wait for it
        raise Failed("picamera2 is not installed: sudo apt install python3-picamera2 (the venv sees it "
                     "with --system-site-packages), or set [camera] source to a USB camera number")
    start = time.monotonic()
    try:
        source = open_source(spec, size=cfg.camera.size, fps=cfg.camera.fps, timeout=1.0)
    except CameraError as exc:
        raise Failed(str(exc)) from None
    try:
        last: Exception | None = None
        while time.monotonic() - start < timeout_s:
            try:
                frame = source.read()
                break
            except CameraError as exc:  # still connecting: the live camera retries by itself
                last = exc
                time.sleep(0.2)
            except EndOfFrames:
                raise Failed(f"{spec}: no frames in it") from None
        else:
            raise Failed(f"{spec}: no frame within {timeout_s:g} s ({last})")
    finally:
        source.close()
    h, w = frame.image.shape[:2]
    return f"{spec}: a {w}x{h} frame in {time.monotonic() - start:.1f} s"


def check_display(cfg: config_mod.Config) -> str:
    """SDL starts with the configured video driver (the kiosk's own: kmsdrm on the Pi)."""
    driver = cfg.display.driver
    if driver != "auto":
        os.environ["SDL_VIDEODRIVER"] = driver
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        pygame.display.init()
    except pygame.error as exc:
        hint = ""
        if driver == "kmsdrm":
            hint = ("; is the service still running (it holds the screen), is the user in the video and "
                    "render groups, and is the KMS overlay (dtoverlay=vc4-kms-v3d) on?")
        raise Failed(f"SDL video driver {driver}: {exc}{hint}") from None
    try:
        name = pygame.display.get_driver()
        sizes = pygame.display.get_desktop_sizes() if hasattr(pygame.display, "get_desktop_sizes") else []
    finally:
        pygame.display.quit()
    screens = ", ".join(f"{w}x{h}" for w, h in sizes) or "no screen size reported"
    return f"SDL video driver {name}: {screens}"


def check_gpio(cfg: config_mod.Config) -> str:
    """The REVEAL button and any extra buttons can be claimed on their pins, and are not held down."""
    from gpiozero import Button, Device, LED
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    pins = {"REVEAL": cfg.gpio.reveal_pin, **{name: pin for name, pin in cfg.gpio.buttons.items()}}
    claimed = []
    # gpiozero warns once per pin library it cannot load before settling on one: noise here.
    warnings.filterwarnings("ignore", category=PinFactoryFallback)
    try:
        for name, pin in pins.items():
            claimed.append((name, pin, Button(pin, pull_up=True)))
        if cfg.gpio.reveal_led_pin is not None:
            led = LED(cfg.gpio.reveal_led_pin)
            claimed.append(("LED", cfg.gpio.reveal_led_pin, led))
            led.on()
            time.sleep(0.2)  # a visible blink: the LED works if you saw it
            led.off()
        pressed = [f"{n} (GPIO {p})" for n, p, dev in claimed if isinstance(dev, Button) and dev.is_pressed]
        factory = type(Device.pin_factory).__name__
    except BadPinFactory as exc:
        raise Failed(f"no GPIO here ({exc}); on the Pi: apt install python3-lgpio") from None
    except (GPIOZeroError, OSError) as exc:
        raise Failed(f"{exc}; is the user in the gpio group?") from None
    finally:
        for _name, _pin, dev in claimed:
            dev.close()
    if pressed:
        raise Failed(f"held down now: {', '.join(pressed)}; a button wired to the wrong pin or shorted "
                     "to ground reads as always pressed")
    listed = ", ".join(f"{n} GPIO {p}" for n, p in pins.items())
    return f"{listed} free and released ({factory})"


def check_state(state_dir: Path) -> str:
    """The state directory exists and this user can write and fsync a file in it; the saved-games
    file, if any, is read-only checked (unreadable or damaged: a warning, the kiosk moves it aside). Never creates or moves the store (that is the kiosk's job,
    and a selftest run as root must not leave root-owned files behind)."""
    from appliance.store import FILENAME, LOCKNAME, StoreError, connect_read_only

    if not state_dir.is_dir():
        from appliance.commands.kiosk import missing_state_dir

        mistyped = missing_state_dir(state_dir)  # the kiosk's own refusal: a file, a dangling link, a typo
        if not mistyped and os.access(state_dir.parent, os.W_OK | os.X_OK):
            # as the kiosk does at its start (it warns in the journal); made here it would be root's
            return f"{state_dir} does not exist yet: the kiosk makes it in {state_dir.parent} at its start"
        raise Failed(mistyped or f"{state_dir} does not exist (the service's StateDirectory= makes it; "
                                 f"or: sudo install -d -o dicetable -g dicetable {state_dir})")
    try:
        with tempfile.NamedTemporaryFile(dir=state_dir, prefix=".selftest-") as probe:
            probe.write(b"x")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        raise Failed(f"{state_dir} is not writable by this user: {exc.strerror}") from None
    free_mb = shutil.disk_usage(state_dir).free / 1e6
    if free_mb < MIN_FREE_MB:
        raise Failed(f"{state_dir}: only {free_mb:.0f} MB free")
    lock = state_dir / LOCKNAME
    if lock.exists() or lock.is_symlink():
        try:
            with open(lock, "a"):  # as the kiosk opens it (``appliance.store.claim``), nothing written
                pass
        except OSError as exc:
            raise Failed(f"{state_dir} writable, but its lock {lock.name} cannot be opened by this user "
                         f"({exc.strerror}): the kiosk plays without saving (sudo rm -r {lock})") from None
    store = state_dir / FILENAME
    if store.is_symlink() and not store.exists():  # the kiosk cannot open it and plays without saving
        raise Failed(f"{state_dir} writable, but {FILENAME} is a link to {os.readlink(store)}, which does not "
                     f"exist: the kiosk plays without saving (sudo rm {store})")
    if not store.exists():
        return f"{state_dir} writable, {free_mb:.0f} MB free, no saved games yet"
    if store.is_file() and store.stat().st_size == 0:
        return ("warn", f"{state_dir} writable; {FILENAME} is empty: the kiosk will move it aside and start fresh")
    if store.is_dir():  # SQLite would say "disk I/O error"; teach, read and summary say it so
        return ("warn", f"{state_dir} writable; {FILENAME} is a folder, not the store's file: the kiosk will "
                        "move it aside and start fresh")
    unwritable = _unwritable(store)
    if unwritable:
        raise Failed(f"{state_dir} writable, but {unwritable}: the kiosk plays without saving (as the service "
                     f"user: sudo chown dicetable:dicetable {store}*; an immutable file: sudo chattr -i {store})")
    try:
        # As summary and teach read it: with its -wal when there is one (a kiosk stopped uncleanly has
        # its latest actions there), else as it lies; no locks, nothing created beside it.
        db, _path = connect_read_only(store)
    except StoreError as exc:
        if exc.errno == errno.EINVAL:  # no database, or another program's
            return ("warn", f"{state_dir} writable; {FILENAME} is not a Dice Table store: the kiosk will move "
                            "it aside and start fresh")
        # A damaged store of ours (SQLITE_CORRUPT: a card cut it short) still has rows to keep.
        return ("warn", f"{state_dir} writable; {FILENAME} cannot be read ({exc.strerror}): the kiosk will move "
                        "it aside and keep whatever of it still reads")
    try:
        (check,) = db.execute("PRAGMA quick_check(1)").fetchone()
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0] if check == "ok" else 0
    except sqlite3.Error:
        check = "damaged"
    finally:
        db.close()
    if check != "ok":
        return ("warn", f"{state_dir} writable; {FILENAME} is damaged: the kiosk will move it aside and keep "
                        "whatever of it still reads")
    return f"{state_dir} writable, {free_mb:.0f} MB free, {counted(games, 'saved game')}"


def _unwritable(store: Path) -> str:
    """Why this user cannot write the saved-games file or its -wal/-shm ("" when it can): opened
    for writing and closed again, nothing written."""
    for part in (store, store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
        if not part.is_file():
            continue
        try:
            with open(part, "r+b"):
                pass
        except OSError as exc:
            return f"{part.name} cannot be written by this user ({exc.strerror})"
    return ""


def check_fonts(drink_word: str = "") -> str:
    """The kiosk's bundled fonts load and have a glyph for every letter of the four languages; a
    warning when they lack one of the config's ``drink_word`` (an emoji: the screen would show a
    box)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from appliance.fonts import font_path

    pygame.font.init()
    found, lacking = [], []
    for bold in (False, True):
        path = font_path(bold)
        if not path.is_file():
            raise Failed(f"{path} is missing: reinstall the program")
        try:
            font = pygame.font.Font(str(path), 24)
        except (pygame.error, OSError) as exc:
            raise Failed(f"{path.name} does not load: {exc}") from None
        letters = [c for c in FONT_SAMPLE if not c.isspace()]
        missing = [c for c, m in zip(letters, font.metrics("".join(letters))) if m is None]
        if missing:
            raise Failed(f"{path.name} has no glyph for {''.join(missing)}")
        found.append(path.name)
        lacking += [c for c, m in zip(drink_word, font.metrics(drink_word)) if m is None]
    word = "".join(dict.fromkeys(lacking))  # each once, though both fonts lack it
    if word:
        return ("warn", f"{', '.join(found)}: every letter of en, de, lv, ru, but no glyph for {word} in "
                        f"drink_word = {drink_word!r}: the screen shows a box in its place (choose a word)")
    return f"{', '.join(found)}: every letter of en, de, lv, ru"
