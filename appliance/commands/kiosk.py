"""The appliance as the boot service runs it: the camera, the GPIO buttons, the full-screen kiosk.

Reads the config (/etc/dicetable/config.toml, $DICETABLE_CONFIG or --config; see
systemd/config.example.toml), opens the saved games in the state directory and resumes an unfinished
game where it was, in the language last chosen on the kiosk (unless the config's language changed
since), then runs the kiosk until it is stopped (SIGTERM, Ctrl+Q). At the first start (no guided
setup in the store yet), or when a pulled plug cut one short, the guided setup shows first; the
camera reads with what it saved: its tray area and light lock win over the config's, unless the
config changed since. A bad config file exits
with status 78 and one clear message (the unit does not restart on it). A second kiosk on the same
state directory (one started by hand while the service runs) exits with status 75 and one clear
message, changing nothing (the lock file kiosk.lock there). A missing camera or missing
GPIO does not stop the kiosk: it says so on screen, and dice can be entered by hand. Nor does a
store it cannot write (a read-only state directory or SD card, a saved-games file this user may not
write): the table plays without saving, the screen says so at the start and at every new game, the
journal says why, and what the store keeps is still read (the language, the guided setup's tray and
light, the taught dice).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="PATH", help="the config file (default /etc/dicetable/config.toml)")
    parser.add_argument("--windowed", action="store_true",
                        help="a window instead of full screen (for a desk: the console's kmsdrm driver, the "
                             "config's default, gives way to the desk's X11 or Wayland)")


def run(args: argparse.Namespace) -> int:
    import logging
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting is no journal line

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from appliance import config
    from appliance.service import Service

    service = Service()
    try:
        cfg = config.load(args.config)
    except config.ConfigError as exc:
        return service.fail(str(exc), config.EXIT_BAD_CONFIG)
    missing = missing_state_dir(cfg.state_dir)
    if missing:
        return service.fail(f"dicetable kiosk: {missing}", config.EXIT_BAD_CONFIG)
    if not cfg.state_dir.exists():
        logging.getLogger("appliance.kiosk").warning(
            "state_dir %s does not exist: the kiosk makes it, with no saved games in it yet", cfg.state_dir)
    return Appliance(cfg, service, windowed=args.windowed).run()


def missing_state_dir(state_dir: Path) -> str:
    """Why ``state_dir`` is mistyped, or "": its folder does not exist, or it names a file (the config
    file itself, say). The kiosk makes the state directory itself as systemd's StateDirectory=
    would, one level, never a path of folders: a typo there would start a fresh store, and a bar
    would think its games and taught dice lost."""
    if state_dir.is_symlink() and not state_dir.exists():
        return f"state_dir {state_dir} is a link to {os.readlink(state_dir)}, which does not exist"
    if state_dir.exists() and not state_dir.is_dir():
        return f"state_dir {state_dir} is a file, not a folder (the folder the games are saved in)"
    if state_dir.exists() or state_dir.parent.is_dir():
        return ""
    if state_dir.parent.exists():
        return f"state_dir {state_dir}: {state_dir.parent} is a file, not a folder"
    return (f"state_dir {state_dir}: its folder {state_dir.parent} does not exist (a mistyped path? "
            "the saved games would start afresh there)")


EXIT_BUSY = 75  # EX_TEMPFAIL: another kiosk plays on the state directory (the unit retries a few times)


def video_driver(configured: str, windowed: bool) -> str | None:
    """The SDL video driver to ask for: the config's ``[display] driver``, or None to let SDL choose
    ("auto", and a --windowed kiosk whose config names "kmsdrm": the console has no windows, and
    with the default config a desk got 'kmsdrm not available')."""
    if configured == "auto" or (windowed and configured == "kmsdrm"):
        return None
    return configured


def status_line(app, pipeline) -> str:
    """The service's status line: the game and its players, and a camera or reader fault going on
    ("maexle, 3 players; camera missing"). English, as the journal: it is the operator's
    ``systemctl status`` line, and sdnotify sends Latin-1 only (a Latvian or Russian status was
    dropped, READY=1 with it: no start, a restart loop)."""
    playing = app.session is not None and not app.session.ended
    line = f"{app.session.kind if playing else 'setup'}, {len(app.setup.seats)} players"
    fault = pipeline.fault if pipeline is not None else ""
    return f"{line}; {fault}" if fault else line


class Appliance:
    """Everything the boot service starts, wired together (see :meth:`run`)."""

    def __init__(self, cfg, service, *, windowed: bool = False) -> None:
        self.cfg = cfg
        self.service = service
        self.windowed = windowed
        self.log = __import__("logging").getLogger("appliance.kiosk")
        self.kept = None  # the store opened read-only when it cannot be written (see ``_store``)
        self.unguarded = None  # the StoreError of a state directory whose lock cannot be opened (``run``)

    def run(self) -> int:
        """The appliance until SIGTERM, Ctrl-C (SIGINT) or the window closes; returns the exit status."""
        import signal

        from appliance.inputs import Command, CommandQueue
        from appliance.store import StateBusy, StoreError, claim

        # The stop signals first: a SIGTERM while the kiosk starts up (a slow, busy Pi) is a clean
        # stop at the first frame, not the default death with status -15. Ctrl-C (a kiosk started
        # by hand) stops it alike: as KeyboardInterrupt it left the camera's thread running in native
        # code, and the process aborted on its way out. A second Ctrl-C interrupts at once.
        commands = CommandQueue()

        def stop(signum, _frame) -> None:
            if signum == signal.SIGINT and self.service.enabled:
                # The service's terminal is tty1: a Ctrl+C on a guest's keyboard there, before SDL
                # mutes the console, must not stop the table (systemctl stop sends SIGTERM).
                self.log.info("Ctrl+C ignored: the boot service is stopped with systemctl stop dicetable")
                return
            commands.put(Command("quit", source="signal"))
            if signum == signal.SIGINT:
                signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            held = claim(self.cfg.state_dir)
        except StateBusy as exc:
            return self.service.fail(f"dicetable kiosk: another kiosk or a dicetable teach (pid {exc.pid or 'unknown'}) holds "
                                     f"{self.cfg.state_dir}: stop it first", EXIT_BUSY)
        except StoreError as exc:  # a lock it cannot open: the table plays, unsaved (``_store``)
            held, self.unguarded = None, exc
        try:
            return self._run(commands)
        finally:
            if held is not None:
                held.close()

    def _run(self, commands) -> int:
        store = self._store()
        voice, sounds = self._sound()
        app = self._app(store, voice, sounds)
        pipeline, worker = self._camera(commands, app)
        trial = self._trial(app, pipeline)
        buttons = self._buttons(commands)
        self._resume(app, pipeline)
        if worker is not None:  # only now: its first settled throw must meet the resumed game and detector
            worker.start()

        from appliance.kiosk.loop import Kiosk

        cfg = self.cfg
        fullscreen = cfg.display.fullscreen and not self.windowed
        try:
            kiosk = Kiosk(app, commands, size=cfg.display.size if (cfg.display.size or not fullscreen) else None,
                          fullscreen=fullscreen, pipeline=pipeline, buttons=buttons,
                          frame_hook=lambda: self._frame(app, pipeline, trial),
                          on_throw=None if trial is None else trial.now)
        except Exception as exc:  # no display at all: nothing to show the table
            self._stop(worker, buttons, voice, store, self.kept)
            return self.service.fail(f"dicetable kiosk: cannot open the display: {exc}", 1)

        kiosk.step()  # the first frame on screen
        self.service.ready(status_line(app, pipeline))
        try:
            kiosk.run()
        finally:
            self.service.stopping()
            kiosk.close()
            self._stop(worker, None, voice, store, self.kept)
        return 0

    def _frame(self, app, pipeline, trial) -> None:
        """Once a UI frame: the trial table's hands, the watchdog, the status line."""
        if trial is not None:
            trial.tick()
        self.service.tick()
        self.service.status(status_line(app, pipeline))

    def _store(self):
        """The saved games in the kiosk's language, and the display driver set; None when the store
        cannot be written (``self.kept`` is then the store opened read-only, or None)."""
        import os

        from appliance import i18n
        from appliance.kiosk.app import start_language
        from appliance.store import Store, StoreError

        cfg = self.cfg
        i18n.set_language(cfg.language)  # the store's notice of a damaged file is worded in it
        try:
            if self.unguarded is not None:
                raise self.unguarded
            store = Store.open(cfg.state_dir)
        except StoreError as exc:  # the table plays unsaved: a restart would not make it writable
            store = None
            self.log.error("%s: the table plays without saving", exc.strerror)
            self.kept = self._read_only(cfg.state_dir)
        else:
            if store.moved_to is not None:  # the screen says so for 12 s; the journal keeps it for the operator
                if store.salvaged:
                    self.log.warning("the saved games were damaged: moved to %s, what still read of them kept",
                                     store.moved_to)
                else:
                    self.log.warning("the saved games could not be read: moved to %s, play starts fresh", store.moved_to)
        start_language(store or self.kept, cfg.language)  # the language button's last choice, if the config kept its language
        driver = video_driver(cfg.display.driver, self.windowed)
        if driver is not None:
            os.environ["SDL_VIDEODRIVER"] = driver
        return store

    def _read_only(self, state_dir):
        """The store in ``state_dir`` opened read-only for what it keeps (the language, the guided
        setup's tray and light, the taught dice), or None (the journal says why)."""
        from appliance.store import Store, StoreError

        try:
            return Store.open_read_only(state_dir)
        except StoreError as exc:
            self.log.warning("the table's settings are not read either: %s", exc.strerror)
            return None

    def _app(self, store, voice, sounds):
        """The kiosk's core, its announcements spoken and its sounds played."""
        from appliance.kiosk.app import App, Hooks

        def announce(items) -> None:
            if voice is not None:
                for a in items:
                    voice.say(a.text)

        def retract(items) -> None:
            if voice is not None:
                voice.unsay(a.text for a in items)

        def sound(name: str) -> None:
            if sounds is not None:
                sounds.play(name)

        cfg = self.cfg
        return App(store=store, drink_word=cfg.drink_word, rules=dict(cfg.rules), yacht_hint=cfg.coach.yacht_hint,
                   maexle_odds=cfg.coach.maexle_odds, drink_cap=cfg.drinks.cap, config_language=cfg.language,
                   hooks=Hooks(announce=announce, retract=retract, sound=sound), cannot_save=store is None, read_only=self.kept,
                   key_quits=not self.service.enabled)

    @staticmethod
    def _resume(app, pipeline) -> None:
        """Wire the camera to the app and continue the saved game, if any; the guided setup shows
        when it is due (a first start, or one a pulled plug cut short)."""
        from appliance import guided
        from appliance.i18n import _

        if pipeline is not None:
            app.hooks.expect, app.hooks.reread, app.hooks.resumed = pipeline.expect, pipeline.reread, pipeline.resumed
        app.resume()
        if guided.due(app.store):
            app.open_guided(resume=True)
        if pipeline is None:
            app.say(_("No camera: enter the dice by hand (Fix dice)"), seconds=30)

    def _sound(self):
        try:
            from appliance.sounds import Sounds
            from appliance.voice import Voice

            return Voice(volume=self.cfg.sound.volume, enabled=self.cfg.sound.voice), Sounds(self.cfg.sound.volume)
        except Exception:
            self.log.exception("no sound")
            return None, None

    def _camera(self, commands, app):
        """The camera pipeline and its worker thread, not yet started, or (None, None) when no
        source can be opened."""
        from appliance.inputs import Command
        from appliance.kiosk.camera import CameraPipeline, CameraWorker

        from appliance import guided

        cfg = self.cfg.camera
        kept = app.store if app.store is not None else self.kept  # what the table keeps, read only if need be
        stamp = guided.camera_stamp(cfg.source, cfg.size, cfg.exposure)
        try:
            from vision.settle import SettleDetector
            from vision.sources import open_source

            if cfg.source == "synthetic":  # the trial mode: a simulated table that waits for the game
                from appliance.trial import trial_source

                source = trial_source(cfg.size, cfg.fps)
            elif isinstance(cfg.source, Path) and (cfg.source.is_dir() or not cfg.source.exists()):
                # Photos, shown as the game waits; a folder not there yet (a USB stick mounted
                # after boot) is a camera not yet plugged in, looked for at every frame.
                from vision.sources import ImageFolderSource

                if not cfg.source.exists():
                    self.log.warning("the image folder %s is not there yet: waiting for it", cfg.source)
                source = ImageFolderSource(cfg.source, fps=cfg.fps, loop=True, wait=True)
            else:
                source = open_source(cfg.source, size=cfg.size, fps=cfg.fps,
                                     exposure_us=cfg.exposure if isinstance(cfg.exposure, int) else None,
                                     exposure=guided.exposure(kept, stamp))
        except Exception as exc:
            self.log.error("camera %s cannot be opened: %s", cfg.source, exc)
            return None, None
        read_dice = self._taught(kept)
        app.hooks.forgot, app.hooks.adapted = read_dice.forget, read_dice.use
        # The guided setup's tray, else the config's; the trial table knows its own (None: the whole frame).
        tray = guided.tray_area(kept, self.cfg.tray.area, cfg.size, cfg.source) or getattr(source, "tray_area", None)
        reference = guided.reference(kept, stamp)
        self.log.info("camera: tray area %s, %s", tray or "the whole frame",
                      "an empty-tray reference" if reference is not None else "no empty-tray reference")
        detector = SettleDetector(read_dice, tray=tray, reference=reference)
        pipeline = CameraPipeline(source, detector, lambda r: commands.put(Command("settled", r, source="camera")))
        app.camera = pipeline
        app.guided.configure(tray_area=tray, reference=reference,
                             tray_stamp=guided.tray_stamp(self.cfg.tray.area, cfg.size, cfg.source), camera_stamp=stamp)
        if app.store is not None:  # a throw corrected by hand is kept as the table's taught dice
            from appliance.teaching import keep_correction

            app.hooks.corrected = lambda values, misread: keep_correction(app.store, *pipeline.last_settled,
                                                                          values, misread)
        live = not isinstance(cfg.source, Path) and cfg.source != "synthetic"
        return pipeline, CameraWorker(pipeline, pace_fps=None if live else cfg.fps)

    def _taught(self, store):
        """The reader (``appliance.teaching.TableReader``) with the adaptation to the dice taught at
        this table, when it reads them better (the journal says whether and why); as
        shipped without a store or on any fault."""
        from appliance.teaching import TableReader, adaptation

        if store is None:
            return TableReader()
        try:
            found, reason = adaptation(store)
        except Exception:
            self.log.exception("the table's taught dice could not be used")
            return TableReader()
        self.log.info("the table's dice: %s", reason)
        return TableReader(found)

    @staticmethod
    def _trial(app, pipeline):
        """The player side of a table that waits for the game: the trial mode's (``appliance.trial``)
        or a folder of photos' (``appliance.folder_table``); None with a real camera."""
        from appliance.folder_table import FolderTable
        from appliance.trial import MISHAPS, TrialSource, TrialTable
        from vision.sources import ImageFolderSource

        if pipeline is not None and isinstance(pipeline.source, TrialSource):
            return TrialTable(app, pipeline.call, mishaps=MISHAPS)
        if pipeline is not None and isinstance(pipeline.source, ImageFolderSource):
            return FolderTable(app, pipeline)
        return None

    def _buttons(self, commands):
        """The GPIO buttons, or None without GPIO (a desk, a PC): the screen and keys still work."""
        import warnings

        from appliance.inputs import GpioButtons

        g = self.cfg.gpio
        try:
            with warnings.catch_warnings():  # one warning per pin library gpiozero tries: the line below says it
                from gpiozero.exc import PinFactoryFallback

                warnings.simplefilter("ignore", PinFactoryFallback)
                return GpioButtons(commands, g.reveal_pin, extra={pin: name for name, pin in g.buttons.items()},
                                   long_press_s=g.long_press_s, led_pin=g.reveal_led_pin)
        except Exception as exc:
            self.log.warning("no GPIO buttons (%s): use the screen or a keyboard", exc)
            return None

    @staticmethod
    def _stop(worker, buttons, voice, store, kept=None) -> None:
        for part, how in ((worker, "stop"), (buttons, "close"), (voice, "close"), (store, "close"), (kept, "close")):
            if part is not None:
                try:
                    getattr(part, how)()
                except Exception:
                    pass

