"""The guided setup on the kiosk: the tray, the light, the empty tray, the table's own dice.

Opened at the kiosk's first start (no setup in the store yet), after a pulled plug that cut a setup
short (it comes back at the step that was showing), and from the menu or the setup screen's button.
Each step can be skipped (what was in force stays); "Previous step" goes back one (what a step kept
is shown kept); "Leave the setup" leaves it, every step left as it is. Its saved state and what wins
over the config: ``appliance.guided``.

1. **The tray**: found in the live frame (``vision.tray.find_tray``), drawn on it; confirmed, found
   again, or skipped.
2. **The light**: the camera's auto exposure and white balance are let settle (SETTLE_S), then
   locked (``CameraPipeline.exposure``); a camera that cannot says so.
3. **The empty tray**: the reference picture, taken when nothing moves and no die lies there.
4. **Your dice**: the players throw their own dice; each settled throw is shown and confirmed,
   corrected on the hand entry (``HandScreen``) or thrown again; kept as taught dice
   (``appliance.teaching.keep_throw``). After TEACH_THROWS (or "Finish", from
   ``vision.adapt.MIN_THROWS``) the adaptation is fitted again (in a thread of its own: the screen
   keeps drawing) and the screen says in words whether
   the table reads with it; "Teach more throws" asks for TEACH_THROWS more. A table without a store
   says at once that it cannot learn (nothing taught could be kept).

The camera is ``app.camera`` (a ``CameraPipeline``, or anything with its ``feed``, ``state``,
``last_settled``, ``calibrate`` and ``exposure``; None: no camera, and every step says so). Nothing
here raises for the camera or the store: a fault is a message, and changes nothing.
"""

from __future__ import annotations

import logging

from appliance import guided
from appliance.i18n import _
from appliance.kiosk import guided_view
from appliance.kiosk.screens import Screen
from appliance.table import find_table
from vision.reading import RETHROW_KINDS

log = logging.getLogger(__name__)

SETTLE_S = 2.0  # s the camera's auto exposure and white balance get to settle before they are locked
ANSWER_S = 6.0  # s the camera has to answer a lock before the step says it got none
# s a fit may take before the step gives it up: a full store's takes ~4 s here, some 20 s on a Pi 4
FIT_TIMEOUT_S = 120.0


def no_picture() -> str:
    """A choice that needs a picture, pressed while the camera gives none. Why it gives none is the
    camera panel's status line, under the picture on every step: not said twice."""
    return _("No picture from the camera yet: try again once it shows one")


def tray_in(frame):
    """``vision.tray.find_tray`` of a camera frame in any of the formats the reader takes
    (``vision.frames.to_bgr``); a frame no tray can be found in (too small, not a picture) is a
    ``Found`` of kind "frame", never an exception."""
    from vision.frames import to_bgr
    from vision.tray import Found, find_tray

    try:
        return find_tray(to_bgr(frame))
    except ValueError as exc:  # FrameError is one
        return Found(None, f"no tray can be found in this frame: {exc}", "frame")


class GuidedScreen(Screen):
    """The guided setup. progress: ``appliance.guided.Progress`` (the step showing); found: the tray
    step's ``vision.tray.Found`` (None before a look); light: the light step's phase ("" | "auto" |
    "settling" | "locking" | "locked" | "failed"), light_values what was locked, light_problem why it
    failed (words); taken: the empty tray was taken; pending: (frame, reading) of a settled throw
    awaiting its confirmation; dice: how many dice the players throw; fitting, decision: the
    adaptation being fitted, and what came of it (words); contradicted: the taught values contradict
    the shipped model's sure readings (the screen offers to forget them)."""

    name = "guided"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.progress = guided.Progress()
        self.back_to = "setup"
        # What the camera reads with now and what the config says (``configure``).
        self.tray_area: guided.Area | None = None
        self.reference = None
        self.tray_stamp: list = guided.tray_stamp(None, (0, 0))
        self.camera_stamp = ""
        self.dice = 5
        self._clear()

    def _clear(self) -> None:
        """Forget the step's own state (a new step, or the setup again)."""
        self.notice = ""
        self.found = None
        self._look_due = False  # the tray step looks by itself once the camera gives a picture
        self.light, self.light_values, self.light_problem = "", None, ""
        self._future, self._until = None, 0.0
        self.taken = False
        self.pending = None
        self.fitting, self.decision = "", ""  # fitting: "" | "asked" | "learning" (``_fit_job`` runs)
        self._fit_job = None  # (``teaching.Kept``, its fit's Future, clock s it began)
        self.contradicted = False  # the taught values contradict sure readings: "Forget these dice" offered
        self.kept_light = self.kept_reference = False  # an earlier setup's, in force (the step's "Now:" line)

    def configure(self, *, tray_area, reference, tray_stamp: list, camera_stamp: str) -> None:
        """What the camera reads with (tray area, reference) and what of the config a confirmed
        tray area and light lock are saved with (``appliance.guided.tray_stamp``, ``camera_stamp``)."""
        self.tray_area, self.reference = tray_area, reference
        self.tray_stamp, self.camera_stamp = tray_stamp, camera_stamp

    # -- opening and leaving --------------------------------------------------------------------

    def open(self, *, resume: bool = False) -> None:
        """Show the setup: from its first step, or (``resume``) at the step a pulled plug cut short."""
        saved = guided.progress(self.app.store) if resume else None
        self.progress = saved if saved is not None and not saved.done else guided.Progress()
        if self.app.screen not in (self.name, "hand"):
            self.back_to = self.app.screen
        session = self.app.session
        if session is not None:  # the dice of the game being played (a Mäxle cup down: its two)
            self.dice = session.need.dice or len(session.last_roll or ()) or find_table(session.kind).dice
        if self.progress.dice:  # the number the players chose before a pulled plug
            self.dice = self.progress.dice
        self.app.screen = self.name
        self._enter(self.progress.step)

    def _enter(self, step: str) -> None:
        self._abandon_light()
        self._clear()
        self.progress.step = step
        if step == guided.DONE:
            self._leave()
            return
        if step == "teach" and self.progress.first_throw < 0:
            self.progress.first_throw = self._last_throw()
        self._save(moving=True)
        if step == "tray":
            self._look_due = True
            self.look(quiet=True)
        elif self.app.camera is None:  # every step says so; what was kept stays (read as the camera's config)
            pass
        elif step == "exposure":
            kept = self._kept_light()
            self.kept_light = kept is not None
            if kept and self.progress.results.get(step) == "locked":  # before a pulled plug: not asked again
                self.light, self.light_values = "locked", kept
        elif step == "reference":
            self.kept_reference = self._reference_fits()
            self.taken = self.kept_reference and self.progress.results.get(step) == "taken"
        elif step == "teach" and self.app.store is not None and self.taught() >= self.progress.goal:
            self.finish("")  # the plug was pulled before the table learned from them: it learns now

    def _next(self) -> None:
        steps = guided.STEPS
        i = steps.index(self.progress.step) if self.progress.step in steps else len(steps) - 1
        self._enter(steps[i + 1] if i + 1 < len(steps) else guided.DONE)

    def _leave(self) -> None:
        self._abandon_light()
        self.progress.step = guided.DONE
        self._save(moving=True)
        self.app.screen = self.back_to if self.back_to in self.app.screens else "setup"
        if self.app.screen == "play" and (self.app.session is None or self.app.session.over):
            self.app.screen = "over" if self.app.session is not None else "setup"

    def back(self) -> None:
        """Esc: leave the setup, every step not done as it is; not while the table learns (the
        screen offers no choice then: the taught throws are learned first)."""
        if not self.fitting:
            self.later("")

    # -- choices ----------------------------------------------------------------------------------

    @property
    def handlers(self):
        own = {"confirm": self.confirm, "look": lambda _arg: self.look(), "lock": self.lock, "next": self.next,
               "picture": self.picture, "dicecount": self.next_count, "right": self.right, "fixthrow": self.fix,
               "again": self.again, "finish": self.finish, "skip": self.skip, "later": self.later,
               "previous": self.previous, "forget": lambda _arg: self.app.confirm.ask("forget"), "more": self.more,
               "done": lambda _arg: self._leave()}
        return {verb: self._afresh(fn) for verb, fn in own.items()}

    def _afresh(self, fn):
        """``fn`` with the notice of the last choice gone first (it was about that choice)."""
        def run(arg: str) -> None:
            self.notice = ""
            fn(arg)
        return run

    def _say(self, text: str) -> None:
        """A problem, said beside the instruction until the next choice (the screen's own message)."""
        self.notice = text

    def view(self):
        return guided_view.view(self)

    def skip(self, _arg: str) -> None:
        """Skip the step: what is in force stays, and so does what the step kept before ("Previous
        step" back to it: its result is not "skipped" over what it kept)."""
        self.progress.results.setdefault(self.progress.step, "skipped")
        self._next()

    def later(self, _arg: str) -> None:
        """Leave the setup now: the steps not done stay as they are (the menu opens it again)."""
        for step in guided.STEPS:
            self.progress.results.setdefault(step, "skipped")
        self._leave()

    def next(self, _arg: str) -> None:
        """On to the next step (after a lock or a picture)."""
        self._next()

    def previous(self, _arg: str) -> None:
        """Back to the step before (a tray confirmed too quickly, a step skipped by mistake): what it
        kept is shown kept (``_enter``), and what the later steps kept stays."""
        steps = guided.STEPS
        if self.progress.step in steps[1:]:
            self._enter(steps[steps.index(self.progress.step) - 1])

    # -- 1. the tray ------------------------------------------------------------------------------

    def look(self, quiet: bool = False) -> None:
        """Look for the tray in the latest frame (``quiet``: without a word when there is none yet,
        as the camera starts: ``tick`` looks again)."""
        frame = self._frame(quiet)
        if frame is not None:
            self.found, self._look_due = tray_in(frame), False
        elif not quiet:  # said: what was found before is no longer offered
            self.found = None

    def confirm(self, _arg: str) -> None:
        """The tray found is the tray: the camera reads with it from now on, and it is kept."""
        if self.found is None or self.found.area is None:
            return
        area = tuple(int(v) for v in self.found.area)
        self.progress.results["tray"] = "confirmed"
        if not self._save(**{guided.TRAY: guided.tray_text(area, self.tray_stamp)}):
            self.progress.results.pop("tray")
            return
        self.tray_area = area
        self._calibrate()
        self._next()

    # -- 2. the light -----------------------------------------------------------------------------

    def lock(self, _arg: str) -> None:
        """Let the camera's exposure and white balance settle, then lock them (``tick`` goes on)."""
        if self.app.camera is None:
            return
        self.light, self.light_problem = "auto", ""
        self._future, self._until = self.app.camera.exposure("auto"), self.app.clock() + ANSWER_S

    def _light_tick(self, now: float) -> None:
        future = self._future
        if self.light in ("auto", "locking") and future is not None and not future.done():
            if now > self._until:
                future.cancel()
                self._light_failed(TimeoutError("no answer"))
            return
        if self.light == "auto":
            if future.exception() is not None:
                self._light_failed(future.exception())
                return
            self.light, self._until = "settling", now + SETTLE_S
        elif self.light == "settling" and now >= self._until:
            self.light = "locking"
            self._future, self._until = self.app.camera.exposure("lock"), now + ANSWER_S
        elif self.light == "locking":
            if future.exception() is not None:
                self._light_failed(future.exception())
                return
            values = future.result()
            self.progress.results["exposure"] = "locked"
            if self._save(**{guided.EXPOSURE: guided.exposure_text(values, self.camera_stamp)}):
                self.light, self.light_values = "locked", values
                log.info("guided setup: the camera's light locked at %s", values)
            else:
                self.progress.results.pop("exposure")
                self.light = ""

    def _kept_light(self) -> dict | None:
        """The light lock kept for this camera (``appliance.guided.exposure``), or None."""
        try:
            return guided.exposure(self.app.store, self.camera_stamp)
        except Exception:
            log.exception("the setup's light lock could not be read")
            return None

    def _reference_fits(self) -> bool:
        """Whether the kept empty tray is one the reader can use: of the camera's frame size (the
        reader ignores another; unknown before the camera's first frame)."""
        try:
            kept = guided.reference(self.app.store, self.camera_stamp or None)
        except Exception:
            log.exception("the setup's empty tray could not be read")
            return False
        frame = self._frame(quiet=True)
        return kept is not None and (frame is None or frame.shape[:2] == kept.shape[:2])

    def _light_failed(self, exc: BaseException) -> None:
        """The lock failed: said on the screen, and the camera, which was let work on auto, goes
        back to the lock kept before, if any (else it would read on auto until the next start)."""
        log.warning("guided setup: the light could not be locked: %s", exc)
        self.light, self.light_problem = "failed", guided_view.light_problem(exc)
        self._restore_light()

    def _abandon_light(self) -> None:
        """A lock cut short (the step skipped, left or gone back from while the light settles): the
        camera, let work on auto for it, goes back to the lock kept before, as after a failed lock."""
        if self.light in ("auto", "settling", "locking"):
            log.info("guided setup: the light step left before its lock")
            self.light, self._future = "", None
            self._restore_light()

    def _restore_light(self) -> None:
        """The camera back on the lock kept before, if any (else it would read on auto until the next
        start)."""
        kept = self._kept_light()
        if kept is not None and self.app.camera is not None:
            self.app.camera.exposure("use", kept)  # a camera that vanished fails this too: nothing to undo
            log.info("guided setup: the camera's light back at the lock kept before, %s", kept)

    # -- 3. the empty tray ------------------------------------------------------------------------

    def picture(self, _arg: str) -> None:
        """Take the empty tray, when nothing moves and no die lies on it."""
        camera = self.app.camera
        if camera is None:
            return
        frame, dice, _ok, status = camera.feed()
        if frame is None:
            self._say(no_picture())
            return
        if camera.state == "no_tray":  # stillness cannot be judged: the tray step first
            self._say(status)
            return
        unusable = tray_in(frame).kind
        if unusable in ("dark", "frame"):  # a covered lens, a frame too small: no tray to tell dice from
            self._say(_("No empty tray taken: {why}").format(why=guided_view.tray_problem(unusable)))
            return
        if camera.state == "moving":
            self._say(_("Something moves on the tray: wait until it is still"))
            return
        if dice:
            self._say(_("Dice on the tray: take them off first"))
            return
        frame = frame.copy()
        self.progress.results["reference"] = "taken"
        try:
            if self.app.store is not None:  # no store (a table without one): used until the next start, as _save
                self.app.store.save_image(guided.REFERENCE, frame, {guided.PROGRESS: self.progress.to_text(),
                                                                     guided.REFERENCE_CAMERA: self.camera_stamp})
        except Exception:
            log.exception("could not keep the empty tray")
            self.progress.results.pop("reference", None)
            self._say(_("The setup could not be saved: nothing changed"))
            return
        self.reference, self.taken = frame, True
        self._calibrate()

    # -- 4. the table's own dice ------------------------------------------------------------------

    def expected(self) -> int | None:
        """The dice the camera is to read now (the teach step, on a table with a store to keep them), or None."""
        teaching = self.progress.step == "teach" and self.app.store is not None
        return self.dice if teaching and not self.fitting and not self.decision else None

    def next_count(self, _arg: str) -> None:
        """The players throw one die more (6, then 1 again); kept with the progress."""
        self.dice = self.dice % 6 + 1
        self.pending = None
        self.progress.dice = self.dice
        self._save(moving=True)

    def taught(self) -> int:
        """Throws taught in this setup's teach step. Taught dice forgotten since the step began (the
        menu's "forget these dice", ``dicetable teach --forget``) restart the throws' ids at 1: the
        step then counts from none."""
        if self.progress.first_throw < 0:
            return 0
        last = self._last_throw()
        if last < self.progress.first_throw:
            self.progress.first_throw, self.progress.goal = 0, guided.TEACH_THROWS
            self._save(moving=True)
        return last - self.progress.first_throw

    def settled(self, reading) -> None:
        """A settled throw from the camera: shown for its confirmation (the teach step waiting)."""
        if self.expected() is None or self.pending is not None:
            return
        image, last = self.app.camera.last_settled if self.app.camera is not None else (None, None)
        if last is not reading or image is None:  # the camera moved on: the next throw will come
            return
        self.pending, self.notice = (image, reading), ""

    def right(self, _arg: str) -> None:
        """The throw was read right: keep it."""
        if self.pending is not None and self.pending[1].ok:
            self._keep(list(self.pending[1].values))

    def _answered(self) -> None:
        """A throw's question answered (kept, corrected or refused): the buttons under the same
        digits now are the step's own (Finish, the number of dice, Skip), which a second press of
        the answering key must not reach (``App.press``)."""
        self.answered_at = self.app.clock()

    def fix(self, _arg: str) -> None:
        """Correct the throw on the hand entry (it starts from what was read)."""
        if self.pending is None or self.pending[1].kind in RETHROW_KINDS:  # no throw: only thrown again
            return
        read = list(self.pending[1].values) if self.pending[1].ok else [d.value for d in self.pending[1].dice]
        self.app.hand.open(self.dice, read if len(read) == self.dice else None, replace=False, done=self._keep,
                           back_to=self.name)

    def again(self, _arg: str) -> None:
        """Not this throw: the next one."""
        if self.pending is not None:
            self._answered()
        self.pending = None

    def _keep(self, values: list[int]) -> None:
        from appliance import teaching
        from vision.examples import LabelError

        self.app.screen = self.name
        if self.pending is None or self.app.store is None:  # no store: the step never asks (guided_view)
            return
        self._answered()
        image, _reading = self.pending
        self.pending = None
        try:
            teaching.keep_throw(self.app.store, image, values, "teach")
        except LabelError as exc:
            log.info("guided setup: a taught throw not kept: %s", exc)
            self._say(_("The table finds another number of dice there: throw again"))
            return
        except Exception:
            log.exception("guided setup: a taught throw could not be kept")
            self._say(_("The setup could not be saved: nothing changed"))
            return
        if self.taught() >= self.progress.goal:
            self.finish("")

    def finish(self, _arg: str) -> None:
        """Enough throws: the table learns from them (fitted at the next tick, after the screen says
        so). Fewer than the adaptation needs (``vision.adapt.MIN_THROWS``): said, nothing changes."""
        from vision.adapt import MIN_THROWS

        if self.app.store is None or self.decision or self.fitting:
            return
        taught = self.taught()
        if taught < MIN_THROWS:
            self._say(guided_view.too_soon(taught))
            return
        if taught <= self.progress.goal - guided.TEACH_THROWS:  # "Teach more" and no throw since: the same fit
            self._say(_("Nothing new to learn from yet: throw your dice first"))
            return
        self.fitting, self.pending = "asked", None

    def forgotten(self) -> None:
        """The taught dice were forgotten (here, after a verdict that they disagree, or from the menu):
        a verdict on them no longer stands; the step asks for throws again, counted from none."""
        self.fitting, self.decision, self.contradicted, self._fit_job = "", "", False, None

    def more(self, _arg: str) -> None:
        """After learning: the players teach more throws (the table learns again after as many more)."""
        if self.decision:
            self.fitting, self.decision, self.contradicted = "", "", False
            self.progress.goal = self.taught() + guided.TEACH_THROWS
            self._save(moving=True)

    def _start_fit(self) -> None:
        """The table learns in a thread of its own: a full store's fit takes seconds, and the screen
        (and the service's watchdog, told by the frame loop) must not wait for it. The store is read
        and written here, in the UI thread; the fit itself touches no store."""
        import threading
        from concurrent.futures import Future

        from appliance import teaching

        try:
            what = teaching.kept(self.app.store)
        except Exception:
            log.exception("guided setup: the taught dice could not be read")
            self.fitting, self.decision = "", guided_view.not_learned()
            return
        future: Future = Future()

        def run() -> None:
            future.set_running_or_notify_cancel()
            try:
                future.set_result(teaching.fit_kept(what))
            except Exception as exc:  # said on the screen, in the UI thread
                future.set_exception(exc)

        threading.Thread(target=run, name="guided-fit", daemon=True).start()
        self.fitting, self._fit_job = "learning", (what, future, self.app.clock())

    def _fitted(self) -> None:
        from appliance import teaching

        what, future, _started = self._fit_job
        self._fit_job = None
        try:
            fitted = future.result()
            if not teaching.current(self.app.store, what.stamp):  # dice taught or forgotten meanwhile
                from vision.adapt import MIN_THROWS

                self.fitting = "asked" if self.taught() >= MIN_THROWS else ""  # learned again from them
                return
            teaching.save_fit(self.app.store, fitted, what)
            if self.app.hooks.adapted is not None:
                self.app.hooks.adapted(fitted.adaptation)
            decision = guided_view.decision(fitted, self.taught())
        except Exception:  # said, and the step goes on: never a screen stuck learning
            log.exception("guided setup: the adaptation could not be fitted")
            self.fitting, self.decision = "", guided_view.not_learned()
            return
        self.progress.results["teach"] = "taught"
        self._save(moving=True)
        self.fitting, self.decision = "", decision
        self.contradicted = bool(fitted.contradicted[0])

    # -- every frame --------------------------------------------------------------------------------

    def tick(self) -> None:
        """Once a frame: the tray is looked for once the camera gives a picture, the light step's lock
        goes on, the adaptation is fitted once asked and shown."""
        if self._look_due and self.progress.step == "tray":
            self.look(quiet=True)
        if self.light in ("auto", "settling", "locking"):
            self._light_tick(self.app.clock())
        if self.fitting == "asked":
            self._start_fit()
        elif self.fitting == "learning" and self._fit_job[1].done():
            self._fitted()
        elif self.fitting == "learning" and self.app.clock() - self._fit_job[2] > FIT_TIMEOUT_S:
            # Given up, never waited on: a late result is dropped with its job, neither saved nor used.
            log.error("guided setup: the adaptation took over %.0f s and was given up", FIT_TIMEOUT_S)
            self.fitting, self.decision, self._fit_job = "", guided_view.not_learned(), None

    # -- the camera and the store -------------------------------------------------------------------

    def _frame(self, quiet: bool = False):
        """The latest camera frame ((H, W, 3) uint8 BGR), or None with the problem said (unless ``quiet``)."""
        if self.app.camera is None:
            return None
        frame, _dice, _ok, _status = self.app.camera.feed()
        if frame is None and not quiet:
            self._say(no_picture())
        return frame

    def _calibrate(self) -> None:
        if self.app.camera is not None:
            self.app.camera.calibrate(self.tray_area, self.reference)

    def _last_throw(self) -> int:
        try:
            return self.app.store.count_examples()[2] if self.app.store is not None else 0
        except Exception:
            log.exception("the taught dice could not be counted")
            return 0

    def _save(self, moving: bool = False, **more: str) -> bool:
        """Keep the progress (and ``more`` settings) in one commit; False, said, when the store
        cannot. ``moving``: the setup goes on all the same (a step, the number of dice), and says
        so; else the caller undoes what it did (a tray, a lock: "nothing changed")."""
        if self.app.store is None:
            return True
        try:
            guided.save_progress(self.app.store, self.progress, **more)
        except Exception:
            log.exception("could not save the guided setup")
            if moving:  # said on the screen that shows next (the setup's own, or the one it returns to)
                self.app.say(_("The setup cannot be saved now: it goes on without saving"))
            else:
                self._say(_("The setup could not be saved: nothing changed"))
            return False
        return True
