"""The kiosk's pure core: which screen is up, the session, the announcements and the message line.

No pygame here. The UI loop (``appliance.kiosk.loop``) turns pygame events and GPIO presses into
``Command``s, feeds them to :meth:`App.handle`, calls :meth:`App.tick` every frame, asks
:meth:`App.view` what to draw and draws it. A tap is resolved by the loop to the id of the choice
under it (:meth:`App.choose`), which the screen on top handles. Settled readings arrive as
``settled`` commands; the session turns them into rolls when the game expects one.

Screens (``appliance.kiosk.screens``, each owning its state and its choices' handlers): ``setup``
(game and players), ``names`` (type a player's name), ``play`` (the game), ``correct`` (the reading
was wrong), ``hand`` (enter the dice by hand), ``sheet`` (the Yacht score sheet), ``menu`` (undo,
end the game, language), ``over`` (the winner and the evening's counts), ``guided`` (the guided
setup of the table: tray, light, empty tray, its own dice). What every screen shares is here: the
session and what it took, the announcement queue, the message line, the buttons.

Choice ids are "verb" or "verb:argument" (e.g. "announce:54", "pick:Bo", "declare:full_house").
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from appliance import i18n
from appliance.games import SetupError
from appliance.i18n import _
from appliance.inputs import Command
from appliance.kiosk import view as views
from appliance.kiosk.screens import Screen
from appliance.kiosk.screens.fix import CorrectScreen, HandScreen
from appliance.kiosk.screens.guided import GuidedScreen
from appliance.kiosk.screens.menu import ConfirmScreen, MenuScreen, OverScreen, SheetScreen, SummaryScreen
from appliance.kiosk.screens.play import PlayScreen
from appliance.kiosk.screens.setup import NamesScreen, SetupScreen
from appliance.kiosk.seat_names import default_name, in_language
from appliance.kiosk.words import (announcements, continued_shorter, games_not_saved, not_continued, problem_text,
                                   setup_refusal_text, unsaved, waiting_for)
from appliance.session import Outcome, Session, counts_total
from appliance.store import STORE_ERRORS
from appliance.table import find_table
from appliance.table.base import Announcement, View

log = logging.getLogger(__name__)

# The store's settings for the language button's choice, and the config's language when it was made.
LANGUAGE_KEY, LANGUAGE_CONFIG_KEY = "language", "language_config"
# The store's setting of the drink cap chosen in the menu, and the caps the button offers after "off".
CAP_KEY = "drink_cap"
DRINK_CAPS = (2, 4, 6, 8, 10, 15, 20)
# s: a question's "yes" (end the game, a new evening, forget the dice) pressed sooner than this after
# it showed was meant for the menu under it: a double tap, a digit pressed twice.
CONFIRM_PAUSE_S = 1.0
# s: any press sooner than this after a question was answered is dropped: the answering tap twice (a
# double tap, a bounce) would land on whatever the next screen shows there, another question perhaps.
ANSWER_PAUSE_S = 0.6
# s: a key (digit, Enter) pressed this soon after a key press that changed the choices on screen was
# aimed at the screen before (a key pressed twice: the menu's "1 Undo", then the game's "1 Reveal").
KEY_GUARD_S = 0.4
# s: a press (tap, digit, Enter) this soon after a settled roll changed the choices on screen (closed
# the menu, brought the game's next step) was aimed at the screen before: the menu's "2 End this
# game" must not become the game's "2: announce 32".
ROLL_GUARD_S = 0.4
# s: an extra button's press (config [gpio.buttons]) this soon after the same button's last one is
# the same push again: a double press of Undo must not take back two actions.
BUTTON_REPEAT_S = 1.0
# s: REVEAL takes an announcement away only once it has shown this long. The guests lifting the cup
# press again and again, and must still see who drinks; a tap on it takes it away at once.
BANNER_READ_S = 1.0
# The store's setting naming the ended game whose winner screen shows ("" when the table left it).
OVER_KEY = "winner_screen"
# The store's setting that is "1" while the evening's chart shows ("End the evening"), so that a
# restart comes back to it rather than to the last game's winner screen.
SUMMARY_KEY = "evening_chart"
# The store's setting holding the camera's last settled roll (its dice in frame px, as JSON): after a
# restart the dice still lying there as they were are no new throw (``SettleDetector.resumed``).
THROW_KEY = "camera_last_roll"
# The screens on which a settled roll is taken (on the hand entry the table is typing the dice).
IN_GAME = ("play", "correct", "sheet", "menu", "confirm")


@dataclass
class Hooks:
    """What the world outside the core wants to hear (all optional).

    announce(list[Announcement]): every outcome's announcements, when they are taken (the demo's
        transcript, the voice). expect(dice: int): how many dice the game's rolls have (the settle
        detector's input), called when it changes; see :attr:`App.camera_dice`. reread(): read the
        dice lying now again (after an undo). resumed(roll): a saved game continued after a restart;
        ``roll`` (an ok ``DiceReading``) is the camera's last settled roll, whose dice may still lie
        on the tray as they were: no new throw (``vision.settle.SettleDetector.resumed``).
    sound(name): a sound effect, "settled" (a roll was taken from the camera) or "reveal".
    corrected(values, misread): a roll entered by hand was taken: its dice (list of 1-6) and the
        misread roll it replaces (a tuple), or None when it was entered for a roll due now.
    forgot(): the table's taught dice were forgotten (the camera reads as shipped from now on).
    adapted(adaptation): the guided setup taught the table its dice: read with ``adaptation`` (a
        ``vision.adapt.Adaptation``, or None: as shipped) from now on.
    retract(list[Announcement]): announcements given to ``announce`` whose action was taken back
        before they showed: not to be said if not said yet (the voice's queue).
    """

    announce: Callable[[list[Announcement]], None] | None = None
    expect: Callable[[int | None], None] | None = None
    reread: Callable[[], None] | None = None
    resumed: Callable[[object], None] | None = None
    sound: Callable[[str], None] | None = None
    corrected: Callable[[list[int], tuple[int, ...] | None], None] | None = None
    forgot: Callable[[], None] | None = None
    adapted: Callable[[object], None] | None = None
    retract: Callable[[list[Announcement]], None] | None = None


@dataclass
class Banner:
    """The announcement on screen and the store's seq to mark once it showed, in the game
    (``session``) whose action it announces: a game's last announcements may still show after the
    next game started ("Play again" pressed under them). ``reword``, when given, words it again (in
    the language of the moment): a banner queued before the language button was pressed shows in
    the new language (:meth:`worded`)."""

    announcement: Announcement
    seq: int | None = None
    last_of_outcome: bool = True
    reword: Callable[[], Announcement] | None = None
    language: str = ""
    session: Session | None = None
    taken: int = 0  # which of the kiosk's accepted actions it announces (``App.took``)

    def worded(self) -> Announcement:
        """The announcement in the active language."""
        if self.reword is not None and self.language != i18n.language():
            try:
                self.announcement, self.language = self.reword(), i18n.language()
            except Exception:  # the words it had are still right, in the language it had
                log.exception("could not word the announcement again in %s", i18n.language())
                self.reword = None
        return self.announcement


@dataclass
class App:
    """The kiosk's state. Construct, then :meth:`resume` (a saved game) or let the table set up.

    store: ``appliance.store.Store`` or None (nothing survives a restart).
    drink_word: the config's unit ("sip", "drink", "point", ...).
    rules: {game: {switch: value}} house rules from the config (RULES.md names).
    players: the seats to start the setup screen with.
    yacht_hint, maexle_odds: show the coach's hint line (config [coach]).
    drink_cap: drinks per player and evening after which they are announced as water (config
        [drinks] cap; 0 none); the menu's drink cap button changes it, kept in the store.
    config_language: the config's ``language``, saved with the language button's choice (see
        :func:`start_language`).
    clock: monotonic seconds (injectable for tests and the headless demo).
    banner_s: how long each announcement stays up (s), unless tapped away.
    camera: the camera pipeline (``appliance.kiosk.camera.CameraPipeline``) the guided setup works
        with, or None (no camera).
    cannot_save: the kiosk has a store but cannot write it (``store`` is then None): the table plays
        without saving, and the message line says so at the start and at every new game.
    read_only: then, the store opened for reading only (``Store.open_read_only``), or None: its
        unfinished game continues, unsaved (:meth:`resume`), and its evening's counts, games and
        drink cap count as the evening's (until "New evening").
    key_quits: Ctrl+Q quits (a kiosk started by hand, the demo); False for the boot service, where
        a guest's USB keyboard must not turn the table off (the staff stop it with systemctl).
    """

    store: object | None = None
    drink_word: str = "sip"
    rules: dict = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    yacht_hint: bool = False
    maexle_odds: bool = False
    drink_cap: int = 0
    config_language: str = i18n.SOURCE_LANGUAGE
    clock: Callable[[], float] = time.monotonic
    banner_s: float = 2.8
    hooks: Hooks = field(default_factory=Hooks)
    camera: object | None = None
    cannot_save: bool = False
    read_only: object | None = None
    key_quits: bool = True

    def __post_init__(self) -> None:
        self.setup = SetupScreen(self, list(self.players) or [default_name(n) for n in (1, 2, 3)])
        self.names = NamesScreen(self)
        self.play = PlayScreen(self)
        self.correct = CorrectScreen(self)
        self.hand = HandScreen(self)
        self.guided = GuidedScreen(self)
        self.confirm = ConfirmScreen(self)
        self.screens: dict[str, Screen] = {screen.name: screen for screen in (
            self.setup, self.names, self.play, self.correct, self.hand, SheetScreen(self), MenuScreen(self),
            OverScreen(self), SummaryScreen(self), self.guided, self.confirm)}
        self.screen = "setup"
        self.session: Session | None = None
        self.evening_summary = None  # the chart's figures, read when "End the evening" is chosen
        self.banners: deque[Banner] = deque()
        # The game's accepted actions still in effect that this kiosk took, newest last (numbered
        # as taken): an undo takes the last one back, and its announcements not yet shown go with it.
        self._in_effect: list[tuple[Session, int]] = []
        self._taken = 0
        self.banner: Banner | None = None
        self.banner_until = 0.0
        self.banner_since = 0.0  # clock s when the announcement on show came up (BANNER_READ_S)
        self.message = ""
        self.message_until = 0.0
        self.focus = -1
        self._focus_on: tuple = ()  # (screen, enabled choice ids) when the focus was last moved
        self.quit = False
        self._ended_sessions: list[Session] = []  # without a store: the evening's ended games
        # The dice count the camera was last told (hooks.expect), None before any. It is kept while
        # no roll is due (a Mäxle cup down, a Yacht declaration, a dialog): changing it would make
        # the settle detector read the still dice again for nothing, and a reading that differs by
        # noise could then pass for a new roll.
        self.camera_dice: int | None = None
        self._last_kind = ""
        self.last_seen: tuple[int, ...] = ()   # the latest dice the session took, for the screen
        self.acted_at = float("-inf")          # clock s when the session last took an action
        self._button_at: dict[str, float] = {}  # clock s of each extra button's last press (BUTTON_REPEAT_S)
        self._key_changed_at = float("-inf")   # clock s of the last key press that changed the choices
        self.roll_changed_at = float("-inf")  # clock s of the last settled roll that changed them (ROLL_GUARD_S)
        # The choices the announcement hides where it was last drawn (the loop sets them): a key
        # aimed at one of them was not aimed at what nobody could see.
        self.under_banner: frozenset[str] = frozenset()
        self._earlier = None  # the read-only store whose evening this one goes on (None after "New evening")
        self._throw_unkept = False  # the last settled roll could not be kept (its traceback logged once)
        if self.store is None and self.read_only is not None:
            self._earlier = self.read_only
            cap = self._read_earlier(lambda store: store.setting(CAP_KEY), None)
            if cap and cap.isdigit():
                self.drink_cap = int(cap)

    @property
    def current(self) -> Screen:
        """The screen on top."""
        return self.screens.get(self.screen, self.setup)

    def view(self) -> View:
        """What to draw now: the screen on top, the announcement, the message line, the focus."""
        view = views.finish(self.current.view(), self.banner.worded() if self.banner is not None else None,
                            self.message, self._focus())
        return in_language(view, (*self.setup.seats, *(self.session.players if self.session is not None else ())))

    # -- starting -----------------------------------------------------------------------------------

    def resume(self) -> bool:
        """Continue the store's unfinished game where it was (same state, same screen); the
        announcements cut off by the power cut are shown again. Returns True if a game resumed.
        A store notice (a damaged file moved aside), or that the games cannot be saved, is shown as
        the message. A write that fails here (a store that became read-only) is logged, never raised.
        Without a store that can be written, the game of ``read_only`` continues unsaved. A game
        whose last moves its engine refuses goes on from before them (``Session.resume_accepted``);
        one whose setup it refuses is set aside. With no game to play on, the last game's winner
        screen, or the evening's chart, comes back if it showed."""
        if self.store is None:
            found = self._unsaved_game()  # may say that its last moves did not replay
            if self.cannot_save:
                self.say(" ".join(filter(None, (self.message, games_not_saved()))), seconds=30)
            resumed = self._continue(found)
            self._back_to_the_chart(self.read_only)
            return resumed
        notice = getattr(self.store, "notice", None)
        if notice:
            self.say(notice, seconds=12)
        try:
            found = Session.resume(self.store)
        except ValueError as exc:
            found = self._accepted_part(self.store, exc)
            if found is None:
                self.say(not_continued(put_aside=self._set_aside_unfinished()), seconds=12)
                return False
        if found is None:
            found = self._winner_screen_game()
        resumed = self._continue(found)
        self._back_to_the_chart(self.store)
        return resumed

    def _back_to_the_chart(self, store) -> None:
        """The evening's chart again, when ``store`` says it showed when the power went
        (``SUMMARY_KEY``) and no game is being played."""
        if store is None or (self.session is not None and not (self.session.ended or self.session.over)):
            return
        try:
            showed = store.setting(SUMMARY_KEY) == "1"
        except Exception:  # a damaged setting: the setup or winner screen, nothing worse
            log.exception("the evening's chart")
            return
        if showed:
            self.screen = "summary"

    def _accepted_part(self, store, exc: ValueError):
        """After ``Session.resume`` refused ``store``'s saved game (``exc``, the engine's English:
        journal only): ``Session.resume_accepted``, the game played on from before the actions its
        engine refuses, with the message saying how many were dropped; or None when it cannot go on
        (its setup does not replay either, or the store cannot save it): the caller says so."""
        log.error("the saved game does not replay: %s", exc)
        try:
            found = Session.resume_accepted(store)
        except Exception:  # a store that cannot write: the game is set aside as before
            log.exception("the saved game's beginning could not be saved as a new game")
            found = None
        if found is None:
            return None
        found, dropped = found
        self.say(continued_shorter(dropped), seconds=12)
        return found

    def _continue(self, found) -> bool:
        """Play on with ``found`` (``Session.resume``'s (session, pending), or None: False)."""
        if found is None:
            return False
        self.session, pending = found
        self._cap(self.session)
        self.setup.game_kind = self.session.kind
        self.setup.seats = list(self.session.players)
        self.screen = "over" if self.session.over or self.session.ended else "play"
        for outcome in pending:
            # An undo whose words the power cut off goes unsaid (the words of an action it took back
            # are dropped by it): a "Taken back" alone after the restart would not say of what.
            self.took(outcome, quiet=outcome.undid)
        self._expect()
        # The dice the camera last settled may still lie on the tray: the restarted camera must not
        # take them for the next throw. (A Mäxle roll under the cup is read afresh when it is lifted.)
        roll = self._kept_throw()
        if roll is not None and self.hooks.resumed and self.session.need.kind != "lift":
            self.hooks.resumed(roll)
        return True

    def _throw_setting(self, reading) -> dict[str, str]:
        """The camera's settled roll as the store keeps it for a restart (``THROW_KEY``); {} for a
        reading that is no roll, or without a store."""
        if self.store is None or not reading.ok:
            return {}
        return {THROW_KEY: json.dumps(reading.to_json())}

    def _keep_throw(self, kept: dict[str, str]) -> None:
        """Keep the camera's settled roll (``_throw_setting``) in the store, when no roll of the
        game was taken with it."""
        if not kept:
            return
        try:
            self.store.save_settings(kept)
        except Exception as exc:  # the game is saved apart; only a re-read of lying dice after a restart is at stake
            if self._throw_unkept:  # a full card refuses every throw: a line each, not a traceback
                log.error("the camera's last roll could not be kept either: %s", exc)
            else:
                log.exception("the camera's last roll could not be kept")
            self._throw_unkept = True
        else:
            self._throw_unkept = False

    def _kept_throw(self):
        """The camera's last settled roll kept in the store, or None (none, or not readable: the
        journal says so)."""
        from vision.reading import DiceReading

        try:
            text = self.store.setting(THROW_KEY) if self.store is not None else None
            roll = DiceReading.from_json(json.loads(text)) if text else None
            if roll is not None and not roll.ok:  # only rolls are kept: this one was damaged
                raise ValueError(f"not a roll: {text}")
            return roll
        except Exception as exc:  # a damaged setting: the lying dice may be read once more, nothing worse
            log.error("the camera's last roll kept in the store cannot be used: %s", exc)
            return None

    def _unsaved_game(self):
        """The unfinished game of the read-only store, as ``Session.resume`` gives it but saving
        nowhere (a read-only SD card after a power cut: the game goes on, not lost), or None."""
        if self.read_only is None:
            return None
        try:
            found = Session.resume(self.read_only)
        except ValueError as exc:  # its last moves may not replay: it goes on from before them
            found = self._accepted_part(self.read_only, exc)
            if found is None:
                self.say(not_continued(put_aside=False), seconds=12)
        except Exception as exc:  # the file cannot be read after all
            log.error("the saved game does not continue: %s", exc)
            return None
        if found is not None:
            found[0].store = None
            log.info("the saved game goes on unsaved: the store cannot be written")
        return found

    def _winner_screen_game(self):
        """The ended game whose winner screen was showing when the power went (``OVER_KEY``), as
        ``Session.resume`` gives it, or None (the table had left it, or it does not replay)."""
        try:
            game_id = self.store.setting(OVER_KEY)
            saved = self.store.game(int(game_id)) if game_id else None
            return Session.resume(self.store, saved) if saved is not None and saved.ended else None
        except (ValueError, TypeError) as exc:
            log.error("the game of the winner screen does not come back: %s", exc)
            return None

    def _keep_winner_screen(self, on: bool) -> None:
        """Remember (or forget) in the store that the winner screen of this game shows, so that a
        restart comes back to it instead of the setup screen."""
        self._keep_screen(OVER_KEY, str(self.session.game_id) if on and self.session is not None
                          and self.session.game_id else "")

    def keep_evening_chart(self, on: bool) -> None:
        """Remember (or forget) in the store that the evening's chart shows (``SUMMARY_KEY``)."""
        self._keep_screen(SUMMARY_KEY, "1" if on else "")

    def _keep_screen(self, key: str, value: str) -> None:
        """The store's setting ``key`` (a screen to come back to after a restart) set to ``value``."""
        if self.store is None:
            return
        try:
            if (self.store.setting(key) or "") != value:
                self.store.save_settings({key: value})
        except Exception:  # the games themselves are saved; only the screen after a restart is at stake
            log.exception("could not keep the screen to come back to (%s)", key)

    def _set_aside_unfinished(self) -> bool:
        """The saved game that does not replay is said once, not at every start: the store ends it
        (its log kept in the file). False when it could not (a store that cannot write says so
        later; the game is met again at the next start)."""
        try:
            saved = self.store.unfinished()
            if saved is not None:
                self.store.set_aside(saved.id)
            return True
        except Exception:
            log.exception("could not set the saved game aside")
            return False

    def start_game(self) -> bool:
        """Start ``game_kind`` with ``seats`` (the setup screen's Start). False, with a message, when
        the engine refuses the setup (too few players, a duplicate name)."""
        if self.session is not None and not self.session.ended:
            self.session.end()
            self._ended(self.session)
        kind, seats = self.setup.game_kind, self.setup.seats
        table = find_table(kind)
        if not table.min_players() <= len(seats) <= table.seat_limit():  # the seats the setup screen gives
            self.say(setup_refusal_text(kind, {"code": "setup.player_count"}))
            return False
        setup = {"game": kind, "players": list(seats), "rules": dict(self.rules.get(kind, {}))}
        try:
            self.session = Session.start(setup, store=self.store)
        except SetupError as exc:  # the engine's English reason to the journal, its code in words on screen
            log.warning("cannot start %s: %s", kind, exc)
            self.say(setup_refusal_text(kind, {"code": exc.code, **exc.facts}))
            return False
        except STORE_ERRORS:  # the store cannot keep the new game: no game that would not survive a restart
            log.exception("could not save the new %s game", kind)
            self.say(unsaved())
            return False
        self._keep_winner_screen(False)
        self._cap(self.session)
        if self.cannot_save:
            self.say(games_not_saved(), seconds=12)
        self.screen = "play"
        self.play.reset()
        self.focus = -1
        self.last_seen = ()
        self._expect()
        return True

    # -- the queue ----------------------------------------------------------------------------------

    def handle(self, cmd: Command) -> None:
        """Do what ``cmd`` means now. Never raises for anything the table does; a bug in a handler is
        logged and shown as a message by the loop."""
        name = cmd.name
        if name != "settled":
            self.message = ""
        if name == "settled":
            self.on_reading(cmd.arg)
        elif name == "reveal":
            self._reveal_button(cmd.arg)
        elif name == "correct" and cmd.source == "button" and self._reveal_due():
            # REVEAL held while a reveal is due: a guest calling the bluff holds the button as often
            # as he presses it. The correction screen is then Fix dice or the keyboard's Backspace.
            self._reveal_button(cmd.arg)
        elif name == "correct":  # REVEAL held: the menu, the sheet or a question give way, as to a press
            if self.screen not in (*IN_GAME, "over") or not self.open_correction():
                self.say(_("Nothing to correct now"))
        elif name in ("select", "activate"):
            self._key(cmd)
        elif name == "move":
            self._move(int(cmd.arg))
        elif name == "back":
            self.back()
        elif name == "text":
            if self.screen == "names":
                self.names.type(str(cmd.arg))
        elif name == "erase":
            if self.screen == "names":
                self.names.erase()
        elif name == "press":
            self._extra_button(str(cmd.arg), cmd.at)
        elif name == "quit":
            if cmd.source == "key" and not self.key_quits:
                log.info("Ctrl+Q ignored: the boot service is stopped with systemctl stop dicetable")
            else:
                self.quit = True
        elif name == "tap":
            pass  # the loop resolves taps to choose(); a tap on nothing does nothing
        self._expect()

    def on_reading(self, reading) -> None:
        """A settled reading from the camera pipeline (the guided setup's, while it shows)."""
        kept = self._throw_setting(reading)
        if self.screen == "guided" or self.session is None or self.screen not in IN_GAME:
            self._keep_throw(kept)
            if self.screen == "guided":
                before = self._shown()
                self.guided.settled(reading)
                if self._shown() != before:  # the teach step's "Right?": a press now was aimed before it
                    self.roll_changed_at = self.clock()
            return
        # A roll taken is kept in one commit with the camera's throw: a plug pulled between the two
        # would lose the roll (its dice taken for seen after the restart) or count it twice.
        outcome = self.session.dice(reading, settings=kept)
        if outcome.accepted:
            before = self._shown()
            self.screen, self.play.sub = "play", ""
            self.message = ""  # a "cannot read" about an earlier throw is over: this one counted
            self._sound("settled")
            self.took(outcome)
            if self._shown() != before:
                self.roll_changed_at = self.clock()
            return
        self._keep_throw(kept)  # no roll taken: nothing to lose with it
        if outcome.problem:
            self.say(problem_text(outcome.problem))

    def tick(self) -> None:
        """Once per frame: move the announcement queue on and let old messages go."""
        now = self.clock()
        if self.screen == "guided":
            self.guided.tick()
        if self.banner is not None and now >= self.banner_until:
            self.banner = None
        if self.banner is None and self.banners:
            self._show_next_banner(now)
        if self.message and now >= self.message_until:
            self.message = ""

    def dismiss_banner(self) -> None:
        """A tap on the announcement: show the next one at once."""
        self.banner = None
        self.tick()

    def hush(self) -> None:
        """A tap on the message line: it goes, and nothing under it is pressed."""
        self.message = ""

    def open_guided(self, resume: bool = False) -> None:
        """The guided setup: from its first step (the menu, the setup screen), or (``resume``) at the
        step a pulled plug cut short; back to this screen when it ends."""
        self.guided.open(resume=resume)
        self._expect()

    def say(self, text: str, seconds: float = 6.0) -> None:
        """A message line for the table (a problem, a hint) for ``seconds``."""
        self.message = text
        self.message_until = self.clock() + seconds

    # -- choices ------------------------------------------------------------------------------------

    def choices(self) -> list:
        """The choices on screen now, in their keyboard order."""
        return self.current.view().choices

    def select(self, n: int) -> None:
        """The n-th choice (1-based), as a digit key picks it; in the hand entry a digit 1-6 sets
        the next die."""
        self.current.select(n)

    def press(self, cid: str) -> None:
        """A person pressed choice ``cid`` (a tap, a digit, Enter): :meth:`choose`, except a
        question's "yes" sooner than CONFIRM_PAUSE_S after the question showed, any press sooner
        than ANSWER_PAUSE_S after a question was answered (the menu's questions, the guided setup's
        "The table read 6 5 4 2 1. Right?"), and any sooner than ROLL_GUARD_S after a
        settled roll changed the choices (all are dropped). A key's press of a choice the
        announcement hides (``under_banner``) only takes the announcement away, as a tap on it does."""
        if self.banner is not None and cid in self.under_banner:
            log.info("%r under the announcement: the announcement goes, nothing is pressed", cid)
            self.dismiss_banner()
            return
        now = self.clock()
        if now - self.roll_changed_at < ROLL_GUARD_S and cid != "dismiss":  # an announcement only goes
            log.info("%r %.2f s after a settled roll changed the screen dropped", cid, now - self.roll_changed_at)
            return
        since = now - self.confirm.asked_at
        if self.screen == self.confirm.name and cid == "yes" and since < CONFIRM_PAUSE_S:
            log.info("\"yes\" %.2f s after the question dropped: too soon to be its answer", since)
            return
        answered = now - max(self.confirm.answered_at, self.current.answered_at)
        if answered < ANSWER_PAUSE_S:
            log.info("%r %.2f s after a question's answer dropped: the same tap again", cid, answered)
            return
        if self.screen == self.confirm.name:
            self.confirm.answered_at = now
        self.choose(cid)

    def choose(self, cid: str) -> None:
        """A choice was pressed (tap, digit, Enter on the focused one): the screen on top does it.
        The keyboard's focus goes when the choices change (it would land on another one: ``_focus``)."""
        verb, _sep, arg = cid.partition(":")
        handler = {"back": lambda _arg: self.back(), "dismiss": lambda _arg: self.dismiss_banner(),
                   "hush": lambda _arg: self.hush(),
                   **self.current.handlers}.get(verb)
        if handler is None:
            log.warning("no handler for choice %r on the %s screen", cid, self.screen)
            return
        self.message = ""
        handler(arg)
        self._focus()
        self._expect()

    def _enabled_ids(self) -> list[str]:
        return [c.id for c in self.choices() if c.style != "disabled"]

    def _shown(self) -> tuple[str, list[str]]:
        """The screen and the choices it offers: when this changes under a press, the press was
        aimed at what showed before (the key and roll guards, the keyboard's focus)."""
        return self.screen, self._enabled_ids()

    def back(self) -> None:
        """Esc / Back: leave a sub-picker or a dialog."""
        self.current.back()

    # -- what the screens share -------------------------------------------------------------------

    def act(self, action: dict) -> bool:
        """Give the session a choice of the table; True if the engine took it."""
        if self.session is None:
            return False
        outcome = self.session.act(action, source="kiosk")
        if outcome.accepted:
            self.took(outcome)
        else:
            self.refused(outcome)
        return outcome.accepted

    def refused(self, outcome: Outcome) -> None:
        """Say why the session took nothing."""
        self.say(problem_text(outcome.problem))

    def reveal(self) -> None:
        """Reveal (the button, or the Reveal choice): the cup comes off."""
        if self.act({"reveal": True}):
            self._sound("reveal")

    def open_correction(self) -> bool:
        """The correction screen; also once the game is decided (a misread last roll decided it), but
        not for a game the table left (its counts are the evening's now). Returns whether it opened."""
        if self.session is None or (self.session.ended and not self.session.over):
            return False
        self.screen = "correct"
        return True

    def undo_last_roll(self) -> bool:
        """Take back the last action if it is a roll; False (with a message) if it cannot be."""
        last = self.session.last_action if self.session is not None else None
        if not last or "roll" not in last:
            self.say(_("No roll to take back"))
            return False
        outcome = self.session.undo(source="kiosk")
        if not outcome.accepted:
            self.refused(outcome)
            return False
        self.took(outcome, quiet=True)
        return True

    def undo(self) -> None:
        """Take back the last action in effect, and go back to the game."""
        if self.session is None:
            return
        if self.session.last_action is None:  # the engine's "nothing to undo" is English
            self.say(_("Nothing to undo"))
            return
        outcome = self.session.undo(source="kiosk")
        if outcome.accepted:
            self.took(outcome)
            self.screen = "play"
            self.play.reset()
        else:
            self.refused(outcome)

    def end_game(self) -> None:
        """End this game now (Biscuit has no end of its own): its counts join the evening's."""
        if self.session is not None and not self.session.ended:
            self.session.end()
            self._ended(self.session)
        self.screen = "over"
        self._keep_winner_screen(True)

    def new_game(self) -> None:
        """Back to the setup for another game; this one's counts join the evening's."""
        if self.session is not None and not self.session.ended:
            self.session.end()
            self._ended(self.session)
        self._keep_winner_screen(False)
        self.session = None
        self.screen = "setup"

    def end_evening(self) -> None:
        """"End the evening" (the menu, the game over screen, the setup screen): this game ends (its
        counts join the evening's) and the evening's chart shows."""
        if self.session is not None and not self.session.ended:
            self.end_game()
        # Read from the store once: nothing changes while the chart shows, and it is drawn every frame.
        self.evening_summary = self.summary()
        self.screen = "summary"
        self.keep_evening_chart(True)

    def new_evening(self) -> None:
        """The summary's "New evening": the evening's counts start again (the games stay saved),
        and the setup shows for the first game."""
        if self.store is not None:
            try:  # with the screens a restart comes back to forgotten, in one commit
                self.store.new_evening(settings={OVER_KEY: "", SUMMARY_KEY: ""})
            except Exception:  # the counts then go on; the table can still play
                log.exception("could not start a new evening")
                self.say(_("Could not start a new evening: the counts go on"))
        self._ended_sessions.clear()
        self._earlier = None
        self.session = None
        self.screen = "setup"

    def _read_earlier(self, read, otherwise):
        """``read(store)`` of the read-only store this evening goes on, or ``otherwise`` (none, or
        it cannot be read: logged)."""
        if self._earlier is None:
            return otherwise
        try:
            return read(self._earlier)
        except Exception:
            log.exception("the evening before the store became read-only")
            return otherwise

    def evening_played(self) -> bool:
        """Whether a game has ended this evening (something for "End the evening" to show); False
        when the store cannot say."""
        if self.store is None:
            return bool(self._ended_sessions) or self._read_earlier(lambda store: store.evening_played(), False)
        try:
            return self.store.evening_played()
        except Exception:
            log.exception("the evening's games")
            return False

    def summary(self):
        """The evening's summary (``appliance.evening.Summary``) of its ended games; an empty one,
        logged, when the store cannot give them."""
        from appliance import evening

        try:
            return evening.from_store(self.store) if self.store is not None else \
                evening.from_sessions(self._ended_sessions, self._earlier)
        except Exception:
            log.exception("the evening's summary")
            return evening.summarize([])

    def _cap(self, session: Session) -> None:
        """Give ``session`` the drink cap and the evening's drinks before it (which count towards it)."""
        if self.store is not None:
            saved = self.store.setting(CAP_KEY)
            if saved and saved.isdigit():
                self.drink_cap = int(saved)
            ended = self.store.evening()
        else:
            ended = counts_total(self._read_earlier(lambda store: store.evening(), {}),
                                 *(s.tally() for s in self._ended_sessions if s is not session))
        session.drink_cap = self.drink_cap
        session.drinks_before = {p: c.get("drinks", 0) for p, c in ended.items()}

    def next_drink_cap(self) -> None:
        """The menu's drink cap button: off, 2, 4, ... DRINK_CAPS, then off again; kept in the store."""
        caps = (0, *DRINK_CAPS)
        self.drink_cap = caps[(caps.index(self.drink_cap) + 1) % len(caps)] if self.drink_cap in caps else 0
        if self.session is not None:
            self.session.drink_cap = self.drink_cap
        if self.store is not None:
            try:
                self.store.save_settings({CAP_KEY: str(self.drink_cap)})
            except Exception:
                log.exception("could not save the drink cap %s", self.drink_cap)

    def camera_reads(self) -> bool:
        """Whether a camera is there and gives pictures (``camera``, its ``gives_no_picture``): else
        the correction screen leads to entering the dice by hand."""
        return self.camera is not None and not getattr(self.camera, "gives_no_picture", False)

    def taught_throws(self) -> int:
        """How many taught throws the store keeps (0 without a store, or one that cannot say: logged)."""
        if self.store is None:
            return 0
        try:
            return self.store.count_examples()[0]
        except Exception:
            log.exception("the taught dice could not be counted")
            return 0

    def forget_dice(self) -> None:
        """Remove the taught dice from the store and the reader (the menu's "forget these dice",
        once its question is answered: ``ConfirmScreen``)."""
        try:
            removed = self.store.forget_examples()
        except Exception:
            log.exception("could not forget the taught dice")
            self.say(_("The taught dice could not be forgotten: the table cannot save now"))
            return
        self.guided.forgotten()
        if self.hooks.forgot is not None:
            self.hooks.forgot()
        log.info("forgot the table's taught dice (%d crops): the shipped reader reads", removed)
        self.say(_("The table forgot its dice: it reads as shipped"))

    def next_language(self) -> None:
        """The next language, kept in the store so that it outlives a restart (:func:`start_language`)."""
        langs = i18n.LANGUAGES
        lang = langs[(langs.index(i18n.language()) + 1) % len(langs)]
        i18n.set_language(lang)
        if self.store is None:
            return
        try:
            self.store.save_settings({LANGUAGE_KEY: lang, LANGUAGE_CONFIG_KEY: self.config_language})
        except Exception:  # the disk is gone: the table still gets its language, until the next start
            log.exception("could not save the language %s", lang)
            self.say(_("The language could not be saved: it lasts until the next start"))

    # -- keyboard focus -----------------------------------------------------------------------------

    def _key(self, cmd: Command) -> None:
        """A digit or Enter; dropped within KEY_GUARD_S of a key press that changed the choices
        (but for the hand entry's digits: faces, on show before OK)."""
        now = self.clock()
        faces = self.screen == "hand" and cmd.name == "select"
        if now - self._key_changed_at < KEY_GUARD_S and not faces:
            log.info("%s key %.2f s after one that changed the screen dropped", cmd.name, now - self._key_changed_at)
            return
        before = self._shown()
        if cmd.name == "select":
            self.select(int(cmd.arg))
        else:
            self._activate()
        if self._shown() != before:
            self._key_changed_at = now

    def _focus(self) -> int:
        """The keyboard's focus, or -1 once the choices changed under it since it was moved (a
        throw settled, a question came): Enter then presses nothing it was not aimed at."""
        if self.focus >= 0 and self._shown() != self._focus_on:
            self.focus = -1
        return self.focus

    def _move(self, step: int) -> None:
        focus, enabled = self._focus(), self._enabled_ids()
        if enabled:
            self.focus = (focus + step) % len(enabled) if focus >= 0 else (0 if step > 0 else len(enabled) - 1)
            self._focus_on = (self.screen, enabled)

    def _activate(self) -> None:
        enabled, focus = self._enabled_ids(), self._focus()
        if 0 <= focus < len(enabled):
            self.press(enabled[focus])
        elif self.screen == "names":
            self.names.on_named("")
        elif self.screen == "hand":  # the dice typed as digits, then Enter: OK (it has no digit)
            self.choose("handok")

    # -- buttons ------------------------------------------------------------------------------------

    def _reveal_due(self) -> bool:
        """Whether the game takes a reveal now, on a screen where REVEAL works (``IN_GAME``)."""
        return self.session is not None and self.screen in IN_GAME and "reveal" in self.session.need.actions

    def _reveal_button(self, pressed_at: float | None = None) -> None:
        """The REVEAL button: accepted only when the game expects a reveal (RULES.md §1), and only by
        a press that went down (``pressed_at``, on ``clock``) after the last action was taken: a
        press begun before the announcement doubts nothing (it may be a penalty point). It works
        where its light says so (``reveal_light``): also over the menu, the sheet, a question or the
        correction screen, which give way to the game then, as they do for a settled roll. With no
        reveal due it takes an announcement away, once it has shown ``BANNER_READ_S``."""
        need = self.session.need if self.session is not None and self.screen in IN_GAME else None
        due = self._reveal_due()
        if due and pressed_at is not None and pressed_at < self.acted_at:
            self.say(_("REVEAL was pressed before the announcement: press it again"))
        elif due:
            if self.act({"reveal": True}):
                self.screen, self.play.sub = "play", ""
                self._sound("reveal")
        elif need is not None and need.kind == "lift" and self.camera_reads():
            self.say(_("Lift the cup: the camera reads the dice"))
        elif need is not None and need.kind == "lift":
            # TRANSLATORS: Mäxle: REVEAL pressed while the cup is to be lifted and the camera gives no
            # picture; "Fix dice" is the button that enters dice by hand.
            self.say(_("No camera: lift the cup and enter the dice with Fix dice"))
        elif self.banner is not None:
            if self.clock() - self.banner_since >= BANNER_READ_S:
                self.dismiss_banner()
            else:
                log.info("REVEAL %.2f s after the announcement came up: left up to be read",
                         self.clock() - self.banner_since)
        else:
            self.say(_("Nothing to reveal now"))

    def reveal_light(self) -> str:
        """The REVEAL button's LED now: "on" when a reveal is taken, "blink" while the cup is to be
        lifted, "off" otherwise."""
        if self.session is None or self.screen not in IN_GAME or self.session.over:
            return "off"
        need = self.session.need
        if need.kind == "lift":
            return "blink"
        return "on" if "reveal" in need.actions else "off"

    def _extra_button(self, name: str, pressed_at: float | None = None) -> None:
        """An extra GPIO button (config [gpio.buttons]): the action it names, if the game takes it; a
        press that went down (``pressed_at``, on ``clock``; None: now) sooner than
        ``BUTTON_REPEAT_S`` after the same button's last is dropped."""
        now = self.clock() if pressed_at is None else pressed_at
        if now - self._button_at.get(name, float("-inf")) < BUTTON_REPEAT_S:
            log.info("the %s button %.2f s after its last press: the same push again, dropped", name,
                     now - self._button_at[name])
            return
        self._button_at[name] = now
        if self.session is None or self.screen != "play":
            return
        need = self.session.need
        if name == "undo":
            self.undo()
        elif name == "menu":
            self.screen = "menu"
        elif name not in need.actions:  # e.g. a Yacht "stop" button during Biscuit: the kiosk's words
            self.say(_("Not now: {what}").format(what=waiting_for(need)))
        elif name == "rule_broken":
            self.play.sub = "breaker"
        elif name in ("accept", "self_reveal", "stop"):
            self.act({name: True})

    # -- outcomes -----------------------------------------------------------------------------------

    def took(self, outcome: Outcome, quiet: bool = False) -> None:
        """An accepted action: queue its announcements (the store marks them once they show)."""
        if outcome.action and "roll" in outcome.action:
            self.last_seen = tuple(outcome.action["roll"])
        self.acted_at = self.clock()
        self.focus = -1
        self.play.page = 0  # whatever list comes next starts at its first page
        session = self.session
        self._taken += 1
        self._in_effect = [(s, n) for s, n in self._in_effect if s is session]  # this game's
        if outcome.undid:
            if self._in_effect:  # (none: an action of before a restart, whose words have shown)
                self._drop_banners_of(self._in_effect.pop()[1])
        else:
            self._in_effect.append((session, self._taken))
        events = [] if quiet or session is None else session.with_water(outcome.events)
        items = announcements(session, events, self.drink_word) if events else []
        if self.hooks.announce and items:
            self.hooks.announce(items)
        if not items and session is not None:
            session.announced(outcome.seq)
        for i, a in enumerate(items):
            self.banners.append(Banner(a, outcome.seq, last_of_outcome=i == len(items) - 1,
                                       reword=partial(_nth, session, events, self.drink_word, i),
                                       language=i18n.language(), session=session, taken=self._taken))
        if self.session is not None and self.session.over:
            self._ended(self.session)
            self.screen = "over"
            self._keep_winner_screen(True)
        elif self.session is not None and outcome.undid:
            # The deciding action may have been taken back: playing again, and a restart comes back to
            # the game, not to its winner screen.
            if self.session in self._ended_sessions:
                self._ended_sessions.remove(self.session)
            self._keep_winner_screen(False)
        self.tick()

    def _drop_banners_of(self, taken: int) -> None:
        """The announcements of an action taken back, showing or waiting, go: "takes 1 penalty point"
        must not stand over the standings it no longer changes, nor be said (``Hooks.retract``). Not
        marked as shown in the store: its marks only move forward, and would cover earlier
        announcements still waiting; the action no longer in effect is not announced again anyway."""
        gone = [b for b in [self.banner, *self.banners] if b is not None and b.taken == taken]
        self.banners = deque(b for b in self.banners if b.taken != taken)
        if self.banner is not None and self.banner.taken == taken:
            self.banner = None
        if gone and self.hooks.retract is not None:
            self.hooks.retract([b.announcement for b in gone])

    def _sound(self, name: str) -> None:
        if self.hooks.sound is not None:
            self.hooks.sound(name)

    def _show_next_banner(self, now: float) -> None:
        self.banner = self.banners.popleft()
        self.banner_since = now
        # A queue that grows (a fast table) moves faster, so the screen never lags far behind.
        self.banner_until = now + (self.banner_s if not self.banners else max(1.2, self.banner_s / (1 + len(self.banners))))
        if self.banner.last_of_outcome and self.banner.session is not None:
            self.banner.session.announced(self.banner.seq)

    def _ended(self, session: Session) -> None:
        if self.store is None and all(s is not session for s in self._ended_sessions):
            self._ended_sessions.append(session)

    def evening(self) -> dict[str, dict[str, int]]:
        """The evening's counts: ended games (from the store, or kept in memory) plus this game."""
        if self.store is not None:
            ended = [self.store.evening()]
        else:
            ended = [self._read_earlier(lambda store: store.evening(), {}), *(s.tally() for s in self._ended_sessions)]
        current = [self.session.tally()] if self.session is not None and not self.session.ended else []
        return counts_total(*ended, *current)

    def _expect(self) -> None:
        """Tell the camera pipeline how many dice the next roll has, when that changes (the count
        stays while no roll is due: see ``camera_dice``). When the Mäxle cup is to be lifted, the
        camera reads afresh: dice it saw too early (the cup came off before REVEAL) must count now."""
        dice, kind = None, ""
        if self.screen == "guided" or (self.screen == "hand" and self.hand.done is not None):
            dice = self.guided.expected()  # the players teach the table their dice
        elif self.session is not None and self.screen in IN_GAME and not self.session.over:
            need = self.session.need
            dice, kind = need.dice, need.kind
        if dice is not None and dice != self.camera_dice:
            self.camera_dice = dice
            if self.hooks.expect:
                self.hooks.expect(dice)
        if kind == "lift" and self._last_kind != "lift" and self.hooks.reread:
            self.hooks.reread()
        self._last_kind = kind


def _nth(session: Session, events: list[dict], drink_word: str, i: int) -> Announcement:
    """The ``i``-th announcement of ``events`` in ``session``'s game, worded now."""
    return announcements(session, events, drink_word)[i]


def start_language(store, configured: str) -> str:
    """Make the language the kiosk starts in the active one, and return it.

    The rule: the language last chosen with the language button (kept in ``store``, an
    ``appliance.store.Store`` or None) wins over the config's ``language`` (``configured``), unless
    the config's ``language`` was changed since that choice: then the config's, and the choice is
    forgotten. A saved language that is unknown or whose catalog is broken is logged and the config's
    used. Call it before building the ``App``: its default seat names are in this language.
    Raises ValueError only when ``configured`` itself cannot be set (``i18n.set_language``).
    """
    chosen = store.setting(LANGUAGE_KEY) if store is not None else None
    if chosen is not None and store.setting(LANGUAGE_CONFIG_KEY) != configured:
        log.info("language: %s from the config, changed since %s was chosen on the kiosk", configured, chosen)
        try:
            if not getattr(store, "read_only", False):  # a store the kiosk cannot write forgets nothing
                store.save_settings({LANGUAGE_KEY: configured, LANGUAGE_CONFIG_KEY: configured})
        except Exception:
            log.exception("could not forget the language chosen on the kiosk")
        chosen = None
    if chosen is not None and chosen != configured:
        try:
            i18n.set_language(chosen)
        except ValueError as exc:
            log.warning("language: the one chosen on the kiosk cannot be used (%s); %s from the config",
                        exc, configured)
        else:
            log.info("language: %s, chosen on the kiosk (the config says %s)", chosen, configured)
            return chosen
    i18n.set_language(configured)
    return configured
