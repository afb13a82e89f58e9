"""The voice: queued, one at a time, off the caller's thread, in the kiosk's language, optional."""

from __future__ import annotations

import io
import logging
import shutil
import threading
import wave

import pytest

from appliance import i18n
from appliance.voice import Voice, VoiceUnavailable, espeak_wav


class FakeAudio:
    """A synthesiser and a player that record what they were given and when."""

    def __init__(self, *, gate: threading.Event | None = None, audio: bool = True):
        self.gate = gate  # synthesis waits for it: holds the worker busy on purpose
        self.audio = audio
        self.said: list[tuple[str, str]] = []
        self.played: list[bytes] = []
        self.active = 0
        self.most_active = 0
        self.lock = threading.Lock()
        self.entered = threading.Event()  # the worker has taken a text off the queue

    def synthesize(self, text: str, lang: str) -> bytes:
        self.entered.set()
        if self.gate is not None:
            assert self.gate.wait(10), "the test never released the synthesiser"
        self.said.append((text, lang))
        return f"{lang}:{text}".encode()

    def play(self, wav: bytes, volume: float, stop: threading.Event) -> bool:
        if not self.audio:
            return False
        with self.lock:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        stop.wait(0.01)  # "playing"
        with self.lock:
            self.active -= 1
        self.played.append(wav)
        return True


def make_voice(fake: FakeAudio, **kw) -> Voice:
    return Voice(synthesize=fake.synthesize, play=fake.play, **kw)


def test_say_returns_while_the_previous_announcement_is_still_being_made():
    gate = threading.Event()
    fake = FakeAudio(gate=gate)
    voice = make_voice(fake)
    guard = threading.Timer(5.0, gate.set)  # if say() blocked, this would free it after 5 s
    guard.start()
    try:
        assert voice.say("Bo drinks 2 sips")
        assert voice.say("Ann is the Biscuit")
        assert not gate.is_set(), "say() waited for the synthesiser"
        assert fake.said == []
    finally:
        gate.set()
        guard.cancel()
    assert voice.wait_idle(5)
    assert [t for t, _ in fake.said] == ["Bo drinks 2 sips", "Ann is the Biscuit"]
    voice.close()


def test_announcements_are_spoken_in_order_and_never_overlap():
    fake = FakeAudio()
    voice = make_voice(fake, max_queue=20)
    texts = [f"announcement {i}" for i in range(12)]
    for text in texts:
        assert voice.say(text)
    assert voice.wait_idle(10)
    assert [t for t, _ in fake.said] == texts
    assert fake.most_active == 1
    assert fake.played == [f"en:{t}".encode() for t in texts]
    voice.close()


def test_speaks_the_language_active_when_the_text_was_queued():
    fake = FakeAudio()
    voice = make_voice(fake)
    i18n.set_language("lv")
    voice.say("Bo dzer 2 malkus")
    i18n.set_language("ru")
    voice.say("Бо пьёт 2 глотка")
    voice.say("Ann drinks", lang="en")
    assert voice.wait_idle(5)
    assert fake.said == [("Bo dzer 2 malkus", "lv"), ("Бо пьёт 2 глотка", "ru"), ("Ann drinks", "en")]
    voice.close()


def test_a_full_queue_drops_the_oldest_waiting_announcement():
    gate = threading.Event()
    fake = FakeAudio(gate=gate)
    voice = make_voice(fake, max_queue=2)
    voice.say("first")
    assert fake.entered.wait(5)  # the worker holds "first" at the gate; the queue is empty
    for text in ("second", "third", "fourth"):
        voice.say(text)
    gate.set()
    assert voice.wait_idle(5)
    assert [t for t, _ in fake.said] == ["first", "third", "fourth"]
    voice.close()


def test_texts_taken_back_before_they_are_spoken_are_not_spoken():
    gate = threading.Event()
    fake = FakeAudio(gate=gate)
    voice = make_voice(fake)
    voice.say("Ann announces 54")
    assert fake.entered.wait(5)  # being spoken: it finishes
    for text in ("63: Ann's 54 holds", "Cy takes 1 penalty point", "Bo drinks"):
        voice.say(text)
    assert voice.unsay(["Ann announces 54", "Cy takes 1  penalty point", "never said"]) == 1
    gate.set()
    assert voice.wait_idle(5)
    assert [t for t, _ in fake.said] == ["Ann announces 54", "63: Ann's 54 holds", "Bo drinks"]
    voice.close()


def test_blank_text_is_not_spoken_and_whitespace_is_tidied():
    fake = FakeAudio()
    voice = make_voice(fake)
    assert not voice.say("   ")
    assert voice.say("Bo\n drinks   2")
    assert voice.wait_idle(5)
    assert fake.said == [("Bo drinks 2", "en")]
    voice.close()


def test_switched_off_voice_says_nothing():
    fake = FakeAudio()
    voice = make_voice(fake, enabled=False)
    assert not voice.say("Bo drinks")
    assert voice.silent == "switched off"
    assert voice._worker is None
    voice.close()


def test_without_espeak_ng_the_voice_is_silent_and_logs_once(monkeypatch, caplog):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING, logger="appliance.voice"):
        voice = Voice()
        for _ in range(3):
            assert not voice.say("Bo drinks")
    assert "espeak-ng" in voice.silent
    assert len([r for r in caplog.records if "voice silent" in r.message]) == 1
    assert voice._worker is None
    voice.close()


def test_a_synthesiser_that_cannot_run_silences_the_voice_once(caplog):
    calls = []

    def missing(text, lang):
        calls.append(text)
        raise VoiceUnavailable("espeak-ng is not installed")

    voice = Voice(synthesize=missing, play=FakeAudio().play)
    with caplog.at_level(logging.WARNING, logger="appliance.voice"):
        voice.say("one")
        assert voice.wait_idle(5)
        assert not voice.say("two")
    assert calls == ["one"]
    assert len([r for r in caplog.records if "voice silent" in r.message]) == 1
    voice.close()


def test_without_an_audio_device_the_voice_goes_silent_and_logs_once(caplog):
    fake = FakeAudio(audio=False)
    voice = make_voice(fake)
    with caplog.at_level(logging.WARNING, logger="appliance.voice"):
        voice.say("one")
        assert voice.wait_idle(5)
        assert not voice.say("two")
    assert voice.silent == "no audio device"
    assert len([r for r in caplog.records if "voice silent" in r.message]) == 1
    voice.close()


def test_one_failing_announcement_does_not_end_the_voice(caplog):
    fake = FakeAudio()

    def flaky(text, lang):
        if text == "bad":
            raise RuntimeError("espeak-ng failed: boom")
        return fake.synthesize(text, lang)

    voice = Voice(synthesize=flaky, play=fake.play)
    with caplog.at_level(logging.ERROR, logger="appliance.voice"):
        voice.say("bad")
        voice.say("good")
        assert voice.wait_idle(5)
    assert fake.said == [("good", "en")]
    assert voice.silent is None
    assert any("could not say 'bad'" in r.message for r in caplog.records)
    voice.close()


def test_close_cuts_the_announcement_and_ends_the_worker():
    started = threading.Event()
    cut = threading.Event()

    def long_play(wav, volume, stop):
        started.set()
        if stop.wait(10):
            cut.set()
        return True

    voice = Voice(synthesize=lambda t, l: b"wav", play=long_play)
    voice.say("a very long announcement")
    voice.say("never spoken")
    assert started.wait(5)
    voice.close(timeout=5)
    assert cut.is_set()
    assert not voice._worker.is_alive()
    assert not voice.say("after close")


def test_bad_volume_is_refused():
    with pytest.raises(ValueError, match="volume"):
        Voice(volume=1.5, synthesize=lambda t, l: b"", play=lambda w, v, s: True)


def test_espeak_wav_refuses_an_unknown_language():
    with pytest.raises(ValueError, match="no voice"):
        espeak_wav("hello", "fr")


def test_espeak_wav_without_espeak_ng_says_which_package(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(VoiceUnavailable, match="Debian package espeak-ng"):
        espeak_wav("hello", "en")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed (apt-get install espeak-ng)")
@pytest.mark.parametrize("lang, text", [
    ("en", "Bo drinks 2 sips"), ("de", "Bo trinkt 2 Schlucke"),
    ("lv", "Bo dzer 2 malkus. Biskvīts!"), ("ru", "Бо пьёт 2 глотка. Яхта!"),
    ("en", "-v nonsense that looks like an option"),
])
def test_espeak_ng_speaks_each_language_to_a_wav(lang, text):
    wav = espeak_wav(text, lang)
    with wave.open(io.BytesIO(wav)) as w:
        seconds = w.getnframes() / w.getframerate()
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
    assert 0.3 < seconds < 10
