"""Spoken announcements: espeak-ng says the kiosk's text in the kiosk's language, off the UI loop.

A loud bar hears who drinks. ``Voice.say(text)`` only puts the text on a short queue and returns;
one worker thread synthesises each text with espeak-ng (Debian package ``espeak-ng``) into a WAV and
plays it through pygame.mixer (``appliance.sounds.play_wav``), so announcements never block the UI
and never overlap. espeak-ng only synthesises (``--stdout``): played by itself it would fight
pygame for a bare ALSA device, and it exits 0 even when no device exists.

Optional all the way: with ``enabled=False`` (config ``[sound] voice = false``), without espeak-ng,
or without an audio device, ``say`` returns False and the table stays silent; each reason is logged
once. Nothing here raises into the kiosk.

Use from the kiosk::

    voice = Voice(volume=config.sound.volume, enabled=config.sound.voice)
    voice.say(text)      # in appliance.i18n.language() unless lang= is given
    ...
    voice.close()        # at exit
"""

from __future__ import annotations

import collections
import logging
import shutil
import subprocess
import threading
from typing import Callable

from appliance import i18n
from appliance.sounds import clean_wav, play_wav

log = logging.getLogger(__name__)

# Kiosk language -> espeak-ng voice (`espeak-ng --voices`): all four ship with the Debian package.
ESPEAK_VOICES = {"en": "en", "de": "de", "lv": "lv", "ru": "ru"}
ESPEAK = "espeak-ng"
RATE_WPM = 150  # words per minute; espeak-ng's 175 is hurried for a noisy room
SYNTH_TIMEOUT_S = 10.0

# synthesize(text, lang) -> WAV bytes; play(wav, volume, stop_event) -> False if there is no audio.
Synthesize = Callable[[str, str], bytes]
Play = Callable[[bytes, float, threading.Event], bool]


class VoiceUnavailable(RuntimeError):
    """The synthesiser cannot run at all (espeak-ng missing): the voice goes silent for good."""


def espeak_wav(text: str, lang: str, *, rate_wpm: int = RATE_WPM, executable: str | None = None) -> bytes:
    """``text`` spoken by espeak-ng in ``lang`` (one of appliance.i18n.LANGUAGES), as WAV bytes
    (16-bit mono, 22050 Hz, true chunk sizes).

    The text goes in on stdin, so a text starting with "-" is never taken for an option.
    Raises VoiceUnavailable when espeak-ng is not installed, ValueError for an unknown language,
    RuntimeError when espeak-ng fails or takes longer than SYNTH_TIMEOUT_S.
    """
    if lang not in ESPEAK_VOICES:
        raise ValueError(f"no voice for language {lang!r}; one of {', '.join(ESPEAK_VOICES)}")
    exe = executable or shutil.which(ESPEAK)
    if not exe:
        raise VoiceUnavailable(f"{ESPEAK} is not installed (Debian package espeak-ng)")
    cmd = [exe, "-v", ESPEAK_VOICES[lang], "-s", str(rate_wpm), "--stdin", "--stdout"]
    try:
        done = subprocess.run(
            cmd, input=text.encode("utf-8"), capture_output=True, timeout=SYNTH_TIMEOUT_S, check=False
        )
    except FileNotFoundError as exc:
        raise VoiceUnavailable(f"{exe} cannot be run: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{ESPEAK} took over {SYNTH_TIMEOUT_S:g} s") from exc
    if done.returncode != 0 or not done.stdout:
        reason = done.stderr.decode("utf-8", "replace").strip() or f"exit status {done.returncode}"
        raise RuntimeError(f"{ESPEAK} failed: {reason}")
    return clean_wav(done.stdout)


class Voice:
    """Announcements spoken one after another by a single worker thread.

    ``volume`` 0.0-1.0 (config ``[sound] volume``), ``enabled`` (config ``[sound] voice``).
    ``max_queue``: texts waiting at most; when more arrive, the oldest waiting one is dropped, so
    the table never hears stale news. ``synthesize`` and ``play`` default to espeak-ng and
    pygame.mixer; tests pass fakes. Raises ValueError for a volume outside 0.0-1.0 or max_queue < 1.
    """

    def __init__(
        self,
        *,
        volume: float = 0.8,
        enabled: bool = True,
        max_queue: int = 4,
        synthesize: Synthesize | None = None,
        play: Play | None = None,
    ) -> None:
        if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0.0 <= volume <= 1.0:
            raise ValueError(f"volume must be a number 0.0-1.0, got {volume!r}")
        if max_queue < 1:
            raise ValueError(f"max_queue must be at least 1, got {max_queue}")
        self.volume = float(volume)
        self._synthesize = synthesize or espeak_wav
        self._play = play or play_wav
        self._pending: collections.deque[tuple[str, str]] = collections.deque(maxlen=max_queue)
        self._cond = threading.Condition()
        self._busy = False
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._silent: str | None = None if enabled else "switched off"
        if enabled and synthesize is None and not shutil.which(ESPEAK):
            self._go_silent(f"{ESPEAK} is not installed (Debian package espeak-ng)")

    @property
    def silent(self) -> str | None:
        """Why the voice is silent ("switched off", no espeak-ng, no audio device), or None."""
        return self._silent

    def say(self, text: str, lang: str | None = None) -> bool:
        """Queue ``text`` to be spoken in ``lang`` (default: the kiosk's language now); returns at once.

        True if queued; False when the voice is silent, closed, or ``text`` is blank.
        """
        text = " ".join(str(text).split())
        if self._silent or self._stop.is_set() or not text:
            return False
        lang = lang or i18n.language()
        with self._cond:
            if len(self._pending) == self._pending.maxlen:
                log.info("voice: too much to say, dropped %r", self._pending[0][0])
            self._pending.append((text, lang))  # a full deque drops its oldest
            self._cond.notify()
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="voice", daemon=True)
                self._worker.start()
        return True

    def unsay(self, texts) -> int:
        """Take ``texts`` back from the queue, each once, if not yet spoken (an action taken back);
        returns how many were. What is being spoken now finishes."""
        dropped = 0
        with self._cond:
            for text in (" ".join(str(t).split()) for t in texts):
                for item in self._pending:
                    if item[0] == text:
                        self._pending.remove(item)
                        dropped += 1
                        break
        return dropped

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken (for the demo and tests, never the UI loop).

        Returns False if ``timeout`` s passed first.
        """
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Stop speaking: drop what is queued, cut the current announcement, end the worker."""
        self._stop.set()
        with self._cond:
            self._pending.clear()
            self._cond.notify_all()
            worker = self._worker
        if worker is not None:
            worker.join(timeout)

    # --- the worker ---------------------------------------------------------------------------

    def _go_silent(self, why: str) -> None:
        if not self._silent:
            self._silent = why
            log.warning("voice silent: %s", why)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._stop.is_set())
                if self._stop.is_set():
                    return
                text, lang = self._pending.popleft()
                self._busy = True
            try:
                self._speak(text, lang)
            except Exception:  # one bad announcement must not end the voice
                log.exception("voice: could not say %r", text)
            finally:
                with self._cond:
                    self._busy = False
                    if self._silent:
                        self._pending.clear()
                    self._cond.notify_all()

    def _speak(self, text: str, lang: str) -> None:
        if self._silent:
            return
        try:
            wav = self._synthesize(text, lang)
        except VoiceUnavailable as exc:
            self._go_silent(str(exc))
            return
        if not self._play(wav, self.volume, self._stop):
            self._go_silent("no audio device")
