"""Sound effects and the shared audio device: playable WAVs, volume, silence without a device."""

from __future__ import annotations

import io
import logging
import threading
import time
import wave

import numpy as np
import pygame
import pytest

from appliance import sounds
from appliance.sounds import NAMES, Sounds, clean_wav, effect_wav, play_wav, tone_wav


@pytest.fixture(autouse=True)
def fresh_mixer(monkeypatch):
    """Each test opens the (dummy) mixer itself and closes it after."""
    monkeypatch.setattr(sounds, "_mixer", sounds._Mixer())
    yield
    pygame.mixer.quit()


def read_wav(data: bytes) -> tuple[np.ndarray, int]:
    with wave.open(io.BytesIO(data)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        return np.frombuffer(w.readframes(w.getnframes()), "<i2"), w.getframerate()


@pytest.mark.parametrize("name, lo_s, hi_s", [("settled", 0.1, 0.3), ("reveal", 0.5, 1.0)])
def test_each_effect_is_a_short_unclipped_wav(name, lo_s, hi_s):
    samples, rate = read_wav(effect_wav(name))
    assert lo_s < len(samples) / rate < hi_s
    peak = np.abs(samples.astype(int)).max()
    assert 0.3 * 32767 < peak < 32767  # audible, never at full scale
    assert abs(int(samples[0])) < 0.05 * 32767  # a soft attack, no click at the start


def test_tone_wav_refuses_impossible_notes():
    for notes in ([], [(5.0, 0.1)], [(440.0, 0.0)], [(440.0, 60.0)]):
        with pytest.raises(ValueError):
            tone_wav(notes)


def test_clean_wav_gives_true_sizes_to_a_header_that_claims_too_much():
    good = tone_wav([(440.0, 0.1)])
    # What espeak-ng writes to a pipe: RIFF and data sizes of 0x7FFFFFFF.
    broken = good[:4] + (0x7FFFFFFF).to_bytes(4, "little") + good[8:40] + (0x7FFFFFFF).to_bytes(4, "little") + good[44:]
    assert clean_wav(broken) == good
    with pytest.raises(ValueError, match="not a PCM WAV"):
        clean_wav(b"not a wav at all")


def test_play_starts_each_effect_at_the_set_volume():
    fx = Sounds(volume=0.25)
    for name in NAMES:
        assert fx.play(name)
    assert pygame.mixer.get_busy()
    loaded = list(fx._loaded.values())
    assert len(loaded) == len(NAMES)
    assert all(s.get_volume() == pytest.approx(0.25, abs=0.01) for s in loaded)
    fx.volume = 1.0
    assert fx.play("settled")
    assert fx._loaded[("settled", pygame.mixer.get_init())].get_volume() == pytest.approx(1.0, abs=0.01)


def test_volume_zero_or_switched_off_is_silence():
    assert not Sounds(volume=0.0).play("reveal")
    assert not Sounds(volume=0.5, enabled=False).play("reveal")
    assert not pygame.mixer.get_init()  # not even opened


def test_unknown_effect_and_bad_volume_are_refused():
    with pytest.raises(ValueError, match="unknown sound"):
        Sounds().play("fanfare")
    for bad in (-0.1, 1.5, "loud", True):
        with pytest.raises(ValueError, match="volume"):
            Sounds(volume=bad)


def test_without_an_audio_device_effects_are_silent_and_logged_once(monkeypatch, caplog):
    def no_device(*args, **kwargs):
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    fx = Sounds()
    with caplog.at_level(logging.WARNING, logger="appliance.sounds"):
        assert not fx.play("settled")
        assert not fx.play("reveal")
        assert not play_wav(effect_wav("settled"))
    assert len([r for r in caplog.records if "no audio device" in r.message]) == 1


def test_play_wav_returns_when_the_sound_has_played():
    assert play_wav(tone_wav([(440.0, 0.05)]), 0.5)
    assert not pygame.mixer.get_busy()


def test_play_wav_stops_early_when_asked():
    stop = threading.Event()
    stop.set()
    started = time.monotonic()
    assert play_wav(tone_wav([(440.0, 3.0)]), 0.5, stop)
    assert time.monotonic() - started < 2.0  # cut, not played out for 3 s
    assert not pygame.mixer.get_busy()


def test_play_wav_refuses_data_that_is_not_a_sound():
    with pytest.raises(ValueError, match="unplayable"):
        play_wav(b"RIFF....garbage", 1.0)
