"""Sound effects through pygame.mixer: a short "tock" when a roll settles, a rising chime at a reveal.

This module is also the one owner of the audio device: ``mixer_ready()`` opens pygame.mixer once
and ``play_wav()`` plays any WAV (the voice's speech goes through it too). One owner matters on the
Pi: a bare ALSA device (no PulseAudio/PipeWire for a system service) opens only once, so a second
player such as espeak-ng's own output would fail or, worse, fail silently with exit status 0.

With no audio device the appliance stays silent and says so once in the log; nothing raises.

The effects are synthesised here with numpy (a few ms, once): no sound files, so no licences.

Use from the kiosk (UI thread; ``play`` never blocks)::

    sounds = Sounds(volume=config.sound.volume)
    sounds.play("settled")    # a roll came to rest
    sounds.play("reveal")     # the cup is lifted
"""

from __future__ import annotations

import functools
import io
import logging
import threading
import time
import wave

import numpy as np

log = logging.getLogger(__name__)

SAMPLE_RATE = 22050  # Hz; the effects and espeak-ng's speech; SDL converts to the device's rate
NAMES = ("settled", "reveal")


# --- the effects ------------------------------------------------------------------------------


def tone_wav(notes: list[tuple[float, float]], *, rate: int = SAMPLE_RATE, level: float = 0.6) -> bytes:
    """A WAV file (bytes; 16-bit signed mono at ``rate`` Hz) of sine ``notes`` played one after another.

    ``notes``: (frequency Hz, duration s) pairs. Each note has a 5 ms attack (no click) and an
    exponential decay, plus a quieter octave for a bell-like timbre. ``level``: peak amplitude as a
    fraction of full scale (0-1]. Raises ValueError for an empty list, a frequency outside 20-10000 Hz
    or a duration outside 0.01-5 s.
    """
    if not notes:
        raise ValueError("no notes")
    if not 0 < level <= 1:
        raise ValueError(f"level must be in (0, 1], got {level}")
    parts = []
    for freq, dur in notes:
        if not 20 <= freq <= 10000 or not 0.01 <= dur <= 5:
            raise ValueError(f"a note is 20-10000 Hz for 0.01-5 s, got {freq} Hz for {dur} s")
        t = np.arange(int(rate * dur)) / rate
        wave_ = np.sin(2 * np.pi * freq * t) + 0.3 * np.sin(4 * np.pi * freq * t)
        envelope = np.minimum(t / 0.005, 1.0) * np.exp(-t / (dur / 3))
        parts.append(wave_ * envelope)
    samples = np.concatenate(parts)
    samples *= level / np.max(np.abs(samples))
    return _wav_bytes((samples * 32767).astype("<i2").tobytes(), rate=rate, channels=1)


@functools.lru_cache(maxsize=None)
def effect_wav(name: str) -> bytes:
    """The WAV bytes of effect ``name`` (one of NAMES). Raises ValueError for another name."""
    if name == "settled":
        # Two quick wooden knocks: short, high, unobtrusive; it sounds at every settled roll.
        return tone_wav([(1320.0, 0.06), (990.0, 0.09)])
    if name == "reveal":
        # A rising C major arpeggio, C5 E5 G5 C6: the moment of truth.
        return tone_wav([(523.25, 0.11), (659.25, 0.11), (783.99, 0.11), (1046.5, 0.4)])
    raise ValueError(f"unknown sound {name!r}; one of {', '.join(NAMES)}")


def _wav_bytes(frames: bytes, *, rate: int, channels: int, sampwidth: int = 2) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(sampwidth)
        w.setframerate(rate)
        w.writeframes(frames)
    return buf.getvalue()


def clean_wav(data: bytes) -> bytes:
    """``data`` (a PCM WAV) rewritten with true chunk sizes.

    espeak-ng writing to a pipe cannot seek back, so its header says 0x7FFFFFFF bytes; SDL's
    loader is lenient about that today, but a WAV that says what it holds needs no leniency.
    Raises ValueError for data that is not a PCM WAV.
    """
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            params = w.getparams()
            frames = w.readframes(params.nframes)  # stops at the real end of the data
    except (wave.Error, EOFError) as exc:
        raise ValueError(f"not a PCM WAV: {exc}") from exc
    return _wav_bytes(frames, rate=params.framerate, channels=params.nchannels, sampwidth=params.sampwidth)


# --- the audio device -------------------------------------------------------------------------


class _Mixer:
    """pygame.mixer opened once, shared by the UI thread (effects) and the voice's worker."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failed: str | None = None  # why there is no audio, once known

    def ready(self) -> bool:
        import pygame

        with self.lock:
            if pygame.mixer.get_init():  # opened by us, or by the kiosk's pygame.init()
                return True
            if self.failed:
                return False
            try:
                # 1024 frames (~23 ms at 44.1 kHz): no underruns on a busy Pi 4, still no audible lag.
                pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=1024)
            except pygame.error as exc:
                self.failed = str(exc) or "no audio device"
                log.warning("no audio device (%s): the table stays silent", self.failed)
                return False
            return True


_mixer = _Mixer()


def mixer_ready() -> bool:
    """Open pygame.mixer if nobody has; False when there is no audio device (logged once, not retried)."""
    return _mixer.ready()


def play_wav(wav: bytes, volume: float = 1.0, stop: threading.Event | None = None) -> bool:
    """Play ``wav`` (WAV bytes) and return when it has finished, or when ``stop`` is set.

    Blocks for the sound's length: call it from a worker thread (the voice does), never from the UI
    loop. ``volume`` 0.0-1.0. Returns False without playing when there is no audio device.
    Raises ValueError for data pygame cannot read.
    """
    import pygame

    if not mixer_ready():
        return False
    try:
        sound = pygame.mixer.Sound(file=io.BytesIO(wav))
    except pygame.error as exc:
        raise ValueError(f"unplayable sound: {exc}") from exc
    sound.set_volume(volume)
    channel = sound.play()
    # A hard end one second past the sound's length: a stalled device never hangs the worker.
    deadline = time.monotonic() + sound.get_length() + 1.0
    stop = stop or threading.Event()
    while channel is not None and channel.get_busy() and time.monotonic() < deadline:
        if stop.wait(0.02):
            channel.stop()
            break
    return True


# --- the kiosk's API --------------------------------------------------------------------------


def _check_volume(volume: float) -> float:
    if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume must be a number 0.0-1.0, got {volume!r}")
    return float(volume)


class Sounds:
    """The effects the kiosk plays: ``play("settled")``, ``play("reveal")``.

    ``volume``: 0.0-1.0 (config ``[sound] volume``); 0 or ``enabled=False`` is silence. Raises
    ValueError for a volume outside 0.0-1.0.
    """

    def __init__(self, volume: float = 0.8, *, enabled: bool = True) -> None:
        self.volume = volume
        self.enabled = enabled
        self._loaded: dict = {}  # (name, mixer format) -> pygame.mixer.Sound, made on first play

    @property
    def volume(self) -> float:
        """Current volume, 0.0-1.0; setting it checks the range (ValueError)."""
        return self._volume

    @volume.setter
    def volume(self, volume: float) -> None:
        self._volume = _check_volume(volume)

    def play(self, name: str) -> bool:
        """Start effect ``name`` (one of NAMES) and return at once; True if it is playing.

        False when silenced or without an audio device (logged once). ValueError for an unknown name.
        """
        wav = effect_wav(name)  # checks the name even when silent
        if not self.enabled or self._volume == 0.0 or not mixer_ready():
            return False
        import pygame

        key = (name, pygame.mixer.get_init())  # a reopened mixer needs its sounds made again
        sound = self._loaded.get(key)
        if sound is None:
            sound = self._loaded[key] = pygame.mixer.Sound(file=io.BytesIO(wav))
        sound.set_volume(self._volume)
        sound.play()
        return True
