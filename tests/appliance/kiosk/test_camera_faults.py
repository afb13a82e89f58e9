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


class Raising:
    """A source that raises what no source is meant to: ``plan`` gives an exception (or None: a
    frame) per read, the last one for good."""

    def __init__(self, *plan):
        self.plan, self.reads = list(plan), 0

    def read(self):
        self.reads += 1
        step = self.plan.pop(0) if len(self.plan) > 1 else self.plan[0]
        if step is not None:
            raise step
        return Frame(np.full((480, 640, 3), 40, np.uint8), self.reads / 30, self.reads)

    def close(self):
        pass


def test_an_unexpected_camera_exception_is_one_journal_line_its_traceback_once_and_a_failing_status(caplog):
    """A driver's RuntimeError and an OSError EIO raised into the kiosk: a traceback twice a second
    was the journal, and the live view kept the status before them ("Camera not found")."""
    import errno

    boom, eio = RuntimeError("driver exploded"), OSError(errno.EIO, "Input/output error")
    source = Raising(CameraMissing(DETAIL), *[boom] * 5, *[eio] * 5, None, *[boom] * 5, None)
    pipeline = CameraPipeline(source, SettleDetector(read_dice), lambda r: None)
    with caplog.at_level(logging.INFO, logger="appliance.kiosk.camera"):
        pipeline.step()
        assert pipeline.feed()[3] == camera_fault("missing")
        for _ in range(5):
            pipeline.step()
            assert pipeline.failing and pipeline.feed()[2:] == (False, camera_fault("failing"))
        for _ in range(12):  # EIO, a frame, the RuntimeError again, a frame
            pipeline.step()
        assert not pipeline.failing and pipeline.feed()[2]  # frames again
        for _ in range(6):
            pipeline.step()
    faults = [r for r in caplog.records if r.getMessage().startswith("camera fault")]
    assert [r.getMessage().split(":")[0] for r in faults] == [
        "camera fault (missing)", "camera fault (RuntimeError)", "camera fault (OSError EIO)", "camera fault (RuntimeError)"]
    assert [r.exc_info is not None for r in faults] == [False, True, True, False]  # a traceback once per kind
    assert len([r for r in caplog.records if "frames again" in r.getMessage()]) == 2


def test_a_reader_that_fails_on_every_frame_is_one_journal_line_not_one_per_frame(caplog):
    class Detector(SettleDetector):
        def update(self, image, t, index):
            raise ValueError("the reader choked")

    pipeline = CameraPipeline(Raising(None), Detector(read_dice), lambda r: None)
    with caplog.at_level(logging.INFO, logger="appliance.kiosk.camera"):
        for _ in range(8):
            pipeline.step()
    assert [r.getMessage() for r in caplog.records] == ["reader fault (ValueError): the settle detector failed on "
                                                        "frame 1: the reader choked"]
    assert caplog.records[0].exc_info is not None and not pipeline.feed()[2]


def test_the_camera_worker_waits_between_reads_of_a_source_that_fails_at_once():
    import time

    from appliance.kiosk.camera import CameraWorker

    source = Raising(RuntimeError("driver exploded"))
    worker = CameraWorker(CameraPipeline(source, SettleDetector(read_dice), lambda r: None)).start()
    time.sleep(1.2)
    worker.stop()
    assert 2 <= source.reads <= 4  # about one read each 0.5 s, not a spinning thread


def test_frames_that_end_say_why_in_the_journal_once(caplog):
    from vision.sources import EndOfFrames

    pipeline = CameraPipeline(Failing(EndOfFrames("no image in /srv/throws can be read"), faulty=10),
                              SettleDetector(read_dice), lambda r: None)
    with caplog.at_level(logging.INFO, logger="appliance.kiosk.camera"):
        for _ in range(3):
            assert pipeline.step() is None
    assert pipeline.feed()[3] == "No more frames"
    assert [r.getMessage() for r in caplog.records] == ["the camera's frames ended: no image in /srv/throws can be read"]


def test_frames_that_come_again_after_their_end_are_read_at_full_pace_again(caplog):
    """A folder whose photos were all unreadable, then good ones added: it stayed "ended", its
    worker stepping five times a second and Fix dice going straight to entering dice by hand."""
    from vision.sources import EndOfFrames

    pipeline = CameraPipeline(Failing(EndOfFrames("no image in /srv/throws can be read"), faulty=2),
                              SettleDetector(read_dice), lambda r: None)
    with caplog.at_level(logging.INFO, logger="appliance.kiosk.camera"):
        pipeline.step()
        pipeline.step()
        assert pipeline.ended and pipeline.gives_no_picture
        pipeline.step()
    assert not pipeline.ended and not pipeline.gives_no_picture
    assert caplog.records[-1].getMessage() == "the camera's frames come again"


class Lockable(Failing):
    """A source that gives frames and keeps what it was asked of its light."""

    def __init__(self):
        super().__init__(CameraTimeout("unused"), faulty=0)
        self.asked: list = []

    def auto_exposure(self):
        self.asked.append("auto")

    def lock_exposure(self):
        self.asked.append("lock")
        return {"ExposureTime": 8000}

    def use_exposure(self, values):
        self.asked.append(("use", values))


def test_the_light_is_let_settle_locked_or_set_back_to_a_kept_lock_in_the_cameras_thread():
    from vision.sources import ExposureUnsupported

    source = Lockable()
    pipeline = CameraPipeline(source, SettleDetector(read_dice), lambda r: None)
    asked = [pipeline.exposure("auto"), pipeline.exposure("lock"), pipeline.exposure("use", {"ExposureTime": 6000})]
    assert source.asked == [] and not any(f.done() for f in asked)  # nothing until the camera's next step
    pipeline.step()
    assert source.asked == ["auto", "lock", ("use", {"ExposureTime": 6000})]
    assert [f.result() for f in asked] == [None, {"ExposureTime": 8000}, None]
    unlockable = CameraPipeline(Failing(CameraTimeout("unused"), faulty=0), SettleDetector(read_dice), lambda r: None)
    future = unlockable.exposure("use", {"ExposureTime": 6000})
    unlockable.step()
    assert isinstance(future.exception(), ExposureUnsupported)


def test_a_tray_area_outside_the_picture_is_said_with_the_picture_shown_and_a_new_area_repairs_it():
    source = Failing(CameraError("unused"), faulty=0)
    pipeline = CameraPipeline(source, SettleDetector(read_dice, tray=(900, 700, 300, 200)), lambda _r: None)
    for _ in range(2):
        pipeline.step()
    frame, _dice, ok, status = pipeline.feed()
    assert frame is not None and not ok and pipeline.state == "no_tray"  # shown: the setup finds the tray in it
    assert status == "The tray area lies outside the picture: set up the tray again"
    pipeline.calibrate((20, 20, 600, 440), None)
    pipeline.step()
    _frame, _dice, ok, status = pipeline.feed()
    assert ok and "outside" not in status
