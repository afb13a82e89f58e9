"""Camera faults on the live view in the kiosk's language: each kind of ``vision.sources.CameraError``
has its own short status in every catalog, and the English detail (device, retry) goes to the journal
only, once per fault."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from appliance import i18n
from appliance.kiosk.camera import CameraPipeline
from appliance.kiosk.words import camera_fault
from vision.reader import read_dice
from vision.settle import SettleDetector
from vision.sources import FAULT_KINDS, CameraError, CameraFrozen, CameraMissing, CameraTimeout, Frame, SourceClosed

KINDS = FAULT_KINDS + ("closed",)  # "closed": SourceClosed, a camera the kiosk has let go
DETAIL = "camera 0: no camera at device 0 (/dev/video0); retrying in 2.0 s"


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_camera_fault_kind_has_its_own_translated_status(lang):
    i18n.set_language(lang)
    texts = {kind: camera_fault(kind) for kind in KINDS}
    general = camera_fault("something new")
    assert len(set(texts.values()) | {general}) == len(KINDS) + 1  # each its own, none the general one
    catalog = i18n.translations(lang)
    for kind, text in texts.items():
        i18n.set_language("en")
        english = camera_fault(kind)
        i18n.set_language(lang)
        if lang != "en":
            assert text != english and catalog.gettext(english) == text, f"{lang}: {kind} untranslated"
        assert "camera 0" not in text and "/dev" not in text


class Failing:
    """A frame source whose camera has the fault ``exc`` for ``faulty`` reads, then gives frames."""

    def __init__(self, exc: Exception, faulty: int = 3):
        self.exc, self.faulty, self.reads = exc, faulty, 0

    def read(self):
        self.reads += 1
        if self.reads <= self.faulty:
            raise self.exc
        return Frame(np.full((480, 640, 3), 40, np.uint8), self.reads / 30, self.reads)

    def close(self):
        pass


@pytest.mark.parametrize("exc", [CameraMissing(DETAIL), CameraTimeout("camera 0: no new frame within 1.00 s"),
                                 CameraFrozen("camera 0: the picture is frozen (unplugged?)"),
                                 CameraError("camera 0: [Errno 19] No such device", kind="lost"),
                                 CameraError("camera 0: gives frames that are not images", kind="bad_frames"),
                                 SourceClosed("camera 0 is closed")],
                         ids=lambda e: getattr(e, "kind", "closed"))
def test_a_camera_fault_shows_its_russian_status_and_its_english_detail_only_in_the_journal(exc, caplog):
    i18n.set_language("ru")
    kind = getattr(exc, "kind", "closed")
    pipeline = CameraPipeline(Failing(exc), SettleDetector(read_dice), lambda r: None)
    with caplog.at_level(logging.INFO, logger="appliance.kiosk.camera"):
        for _ in range(3):
            assert pipeline.step() is None
            frame, dice, ok, status = pipeline.feed()
            assert (frame, dice, ok, status) == (None, (), False, camera_fault(kind))
        assert not any(c.isascii() and c.isalpha() for c in status)  # Russian, no English detail
        pipeline.step()  # frames again
    frame, dice, ok, status = pipeline.feed()
    assert ok and frame is not None and status != camera_fault(kind)
    journal = [r.getMessage() for r in caplog.records]
    assert [line for line in journal if str(exc) in line] == [f"camera fault ({kind}): {exc}"]  # once, not per read
    assert any("frames again" in line for line in journal)


def test_a_fault_that_changes_kind_is_logged_again():
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    log = logging.getLogger("appliance.kiosk.camera")
    log.addHandler(handler)
    try:
        faults = iter([CameraTimeout("camera 0: no frame within the timeout"), CameraMissing(DETAIL),
                       CameraMissing(DETAIL.replace("2.0", "4.0"))])

        class Source:
            def read(self):
                raise next(faults)

            def close(self):
                pass

        pipeline = CameraPipeline(Source(), SettleDetector(read_dice), lambda r: None)
        for _ in range(3):
            pipeline.step()
    finally:
        log.removeHandler(handler)
    assert [r.getMessage().split(":")[0] for r in records] == ["camera fault (timeout)", "camera fault (missing)"]
