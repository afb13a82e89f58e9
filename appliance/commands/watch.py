"""Run the settle detector over a camera, a video file, an image folder or the synthetic table, and
print one line per settled throw.

SOURCE is "picamera", a device number (0 for /dev/video0), a video file, a folder of images (played
in name order at --fps, each held --hold s) or "synthetic" (a seeded table that throws --dice dice
--throws times by itself). With --json each settled throw is one line: the `dicetable read --json`
object plus "frame" (the frame's number). As a calibration aid, --show DIR writes annotated frames
(tray area, dice boxes and values, the state) to DIR: every frame that was read, every settled one,
and every 15th otherwise. --state DIR reads with the adaptation to the dice taught at that table
(`dicetable teach`).

Camera faults are reported on stderr and retried; after --give-up seconds without a frame, watch
exits with status 1. The end of a file, folder or synthetic script exits 0, or 1 when not one frame
could be read from it; in a folder, only files named as images are played (.jpg, .png ...), and one
that cannot be read as an image is named on stderr and skipped; a folder with none is refused
(status 2). A single photo is refused (status 2) with a hint: nothing moves or settles in it, `dicetable read`
reads it (a file named as a photo that is none is said to be unreadable, also status 2). A reading that is unreadable says what it saw as `read` does.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from pathlib import Path

from appliance.commands import argtypes
from appliance.commands.text import json_name


def _tray(text: str) -> tuple[int, int, int, int]:
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"the tray area is X,Y,W,H in px, e.g. 40,30,560,420, not {text!r}") from None
    if x < 0 or y < 0 or w < 16 or h < 16:
        raise argparse.ArgumentTypeError(f"the tray area must lie in the frame and be at least 16x16 px, not {text!r}")
    return x, y, w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``dicetable watch``."""
    parser.add_argument("source", metavar="SOURCE", help="picamera, a device number, a video file, an image folder, or synthetic")
    parser.add_argument("--dice", type=int, choices=range(1, 13), metavar="N", default=None,
                        help="the number of dice the game expects (a reading with another count is reported as such)")
    parser.add_argument("--json", action="store_true", help="one JSON object per settled throw")
    parser.add_argument("--show", type=Path, metavar="DIR", help="write annotated frames to DIR (calibration aid)")
    parser.add_argument("--size", type=argtypes.size((16, 16), (8192, 8192), "640x480"), default=(640, 480), metavar="WxH", help="camera frame size (default 640x480)")
    parser.add_argument("--fps", type=argtypes.positive(float), default=30.0, help="frame rate of cameras, folders and the synthetic table (default 30)")
    parser.add_argument("--hold", type=argtypes.non_negative(float), default=0.0, metavar="S", help="image folders: seconds each image stays in view (default 0: one frame)")
    parser.add_argument("--tray", type=_tray, metavar="X,Y,W,H", help="the tray area in px (default: the whole frame)")
    parser.add_argument("--reference", type=Path, metavar="IMAGE", help="an empty-tray photo from this camera")
    parser.add_argument("--state", type=argtypes.state_directory, metavar="DIR",
                        help="read with the adaptation to the dice taught in this state directory, or its dicetable.sqlite3 (dicetable teach)")
    parser.add_argument("--still", type=argtypes.positive(float), default=0.4, metavar="S", help="seconds the dice must lie still (default 0.4)")
    parser.add_argument("--agree", type=argtypes.positive(int), default=3, metavar="K", help="consecutive readings that must agree (default 3)")
    parser.add_argument("--exposure", type=argtypes.positive(int), metavar="US",
                        help="picamera: fixed exposure time in µs (default: fixed after a warm-up on auto exposure)")
    parser.add_argument("--timeout", type=argtypes.positive(float), default=1.0, metavar="S", help="longest wait for one camera frame (default 1)")
    parser.add_argument("--give-up", type=argtypes.positive(float), default=30.0, metavar="S", help="exit 1 after this long without a frame (default 30)")
    parser.add_argument("--max-frames", type=argtypes.positive(int), metavar="N", help="stop after N frames")
    parser.add_argument("--seed", type=argtypes.seed, default=0, help="synthetic: the seed of the table and its throws")
    parser.add_argument("--throws", type=argtypes.positive(int), default=10, help="synthetic: how many throws (default 10)")


def run(args: argparse.Namespace) -> int:
    """Runs the watch loop; returns the exit status (0 end of frames, 1 camera gone or no frame at
    all, 2 bad input)."""
    opened = _open(args)
    if isinstance(opened, int):
        return opened
    watch = _Watch(args, *opened)
    # watch names each skipped file itself (_say_skipped); the image folder's own warning, which is
    # for the kiosk's journal, would say it a second time.
    folder_log = logging.getLogger("vision.sources.folder")
    level = folder_log.level
    folder_log.setLevel(logging.ERROR)
    try:
        return watch.loop()
    finally:
        folder_log.setLevel(level)
        watch.source.close()


def _open(args: argparse.Namespace):
    """The source, the settle detector and the reference image for ``args``, or the exit status 2
    (with the reason on standard error)."""
    from vision.images import ImageError, load_image
    from vision.reader import read_dice
    from vision.settle import SettleDetector, SettleParams
    from vision.sources import CameraError, open_source

    reference = None
    if args.reference is not None:
        try:
            reference = load_image(args.reference)
        except ImageError as exc:
            print(f"dicetable watch: cannot read the reference image {args.reference}: {exc.reason}", file=sys.stderr)
            return 2
    if _single_photo(args.source):
        try:
            load_image(args.source)
        except ImageError as exc:  # named as a photo, but not one
            print(f"dicetable watch: cannot read {args.source}: {exc.reason}", file=sys.stderr)
            return 2
        print(f"dicetable watch: {args.source} is a single photo, where nothing moves or settles: read it with "
              f"dicetable read {args.source} (watch takes a camera, a video file or a folder of images)",
              file=sys.stderr)
        return 2
    if args.state is not None:
        from appliance import teaching

        read_dice = teaching.reader(args.state, "dicetable watch")
        if read_dice is None:
            return 2
    try:
        source = open_source(args.source, size=args.size, fps=args.fps, dice=args.dice or 2, seed=args.seed,
                             timeout=args.timeout, hold_s=args.hold, throws=args.throws, exposure_us=args.exposure)
    except CameraError as exc:
        print(f"dicetable watch: {exc}", file=sys.stderr)
        return 2
    if args.show is not None:
        try:
            args.show.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # --show names a file, or a place that cannot hold a folder
            reason = "it is a file, not a folder" if args.show.is_file() else exc.strerror or exc
            print(f"dicetable watch: cannot write annotated frames to {args.show}: {reason}",
                  file=sys.stderr)
            source.close()
            return 2
    params = SettleParams(still_s=args.still, agree=args.agree)
    detector = SettleDetector(read_dice, args.dice, tray=args.tray, reference=reference, params=params)
    return source, detector, reference


def _single_photo(source: str) -> bool:
    """Whether SOURCE is one image file (OpenCV would open it as a video of one frame, and nothing
    would settle)."""
    from vision.sources import IMAGE_SUFFIXES

    path = Path(source)
    return path.suffix.lower() in IMAGE_SUFFIXES and path.is_file()


def _hint_hold(source, frames: int, params) -> None:
    """Nothing settled from a folder: when each image was in view for less than the settle time
    (--still plus --agree readings), nothing could lie still long enough (a silent exit puzzled)."""
    held_s = source.repeat / source.fps
    settle_s = params.still_s + params.agree / source.fps
    if held_s > settle_s:
        return
    shown = "one frame" if source.repeat < 2 else f"held {held_s:g} s"
    print(f"dicetable watch: no throw settled in {frames} frames; each image of a folder is {shown}, shorter "
          f"than the settle time ({settle_s:g} s: --still {params.still_s:g} s, then {params.agree} agreeing readings at "
          f"{source.fps:g} fps): hold each one longer, e.g. --hold {max(1, math.ceil(2 * settle_s))}",
          file=sys.stderr)


class _Watch:
    """The watch loop over one source: frames to the detector, settled rolls printed, faults said
    once each."""

    def __init__(self, args: argparse.Namespace, source, detector, reference) -> None:
        self.args, self.source, self.detector, self.reference = args, source, detector, reference
        self.file_name = str(args.source)
        self.last_frame_at = time.monotonic()
        self.last_error = ""
        self.frames = self.settled = 0
        self.skipped = 0  # the folder's unreadable files named so far

    def loop(self) -> int:
        """Reads until the end of the frames, ``--max-frames``, or an exit status."""
        from vision.sources import CameraError, EndOfFrames, SourceClosed

        args = self.args
        while args.max_frames is None or self.frames < args.max_frames:
            try:
                frame = self.source.read()
            except (EndOfFrames, SourceClosed):
                return self._ended()
            except CameraError as exc:
                status = self._fault(exc)
                if status is not None:
                    return status
                continue
            status = self._frame(frame)
            if status is not None:
                return status
        return 0

    def _ended(self) -> int:
        from vision.sources import ImageFolderSource

        args, source = self.args, self.source
        self.skipped = _say_skipped(source, self.skipped)
        if self.frames == 0:  # a text file taken for a video, a folder of non-images
            print(f"dicetable watch: not one frame could be read from {args.source}", file=sys.stderr)
            return 1
        if self.settled == 0 and isinstance(source, ImageFolderSource):
            _hint_hold(source, self.frames, self.detector.params)
        return 0

    def _fault(self, exc) -> int | None:
        self.detector.interrupt()
        if str(exc) != self.last_error:
            print(f"dicetable watch: {exc}", file=sys.stderr)
            self.last_error = str(exc)
        if time.monotonic() - self.last_frame_at > self.args.give_up:
            print(f"dicetable watch: no frame for {self.args.give_up:g} s, giving up", file=sys.stderr)
            return 1
        time.sleep(0.05)  # a source without its own wait must not make this loop spin
        return None

    def _frame(self, frame) -> int | None:
        from vision.images import ImageError, save_image
        from vision.sources import ImageFolderSource

        args, source, reference = self.args, self.source, self.reference
        self.skipped = _say_skipped(source, self.skipped)
        self.last_frame_at = time.monotonic()
        self.last_error = ""
        self.frames += 1
        if self.frames == 1 and reference is not None and reference.shape != frame.image.shape:
            print(f"dicetable watch: the reference is {reference.shape[1]}x{reference.shape[0]} px, the frames "
                  f"{frame.image.shape[1]}x{frame.image.shape[0]}: it is not used", file=sys.stderr)
        start = time.perf_counter()
        try:
            update = self.detector.update(frame.image, frame.t, frame.index)
        except ValueError as exc:  # a tray area outside the frame
            print(f"dicetable watch: {exc}", file=sys.stderr)
            return 2
        ms = (time.perf_counter() - start) * 1000
        if isinstance(source, ImageFolderSource) and source.current_file is not None:
            self.file_name = str(source.current_file)
        if update.settled is not None:
            self.settled += 1
            _print_settled(update.settled, self.file_name, ms, args.json)
        if args.show is not None and (update.reading is not None or frame.index % 15 == 0):
            try:
                save_image(args.show / _show_name(frame.index, update), annotate(frame.image, update, args.tray))
            except ImageError as exc:  # a full disk, the folder gone
                print(f"dicetable watch: cannot write annotated frames: {exc}", file=sys.stderr)
                return 2
        return None


def _say_skipped(source, said: int) -> int:
    """Names on stderr the image folder's files skipped since ``said`` of them were named; returns
    how many are named now (other sources skip nothing)."""
    skipped = getattr(source, "skipped", [])
    for path, reason in skipped[said:]:
        print(f"dicetable watch: skipped {path}: {reason}", file=sys.stderr)
    return len(skipped)


def _print_settled(settled, file_name: str, ms: float, as_json: bool) -> None:
    reading = settled.reading
    if as_json:
        out = {"file": json_name(file_name), **reading.to_json(), "ms": round(ms, 2), "frame": settled.index}
        print(json.dumps(out), flush=True)
    elif reading.ok:
        print(f"frame {settled.index} ({settled.t:.2f} s): {' '.join(map(str, reading.values))}", flush=True)
    else:
        seen = f" (saw {' '.join(map(str, reading.values))})" if reading.dice else ""
        print(f"frame {settled.index} ({settled.t:.2f} s): unreadable: {reading.reason}{seen}", flush=True)


def _show_name(index: int, update) -> str:
    tag = "settled" if update.settled is not None else update.state
    return f"{index:06d}_{tag}.jpg"


STATE_COLOURS = {"moving": (0, 140, 255), "still": (80, 200, 80), "empty": (200, 200, 200)}


def annotate(image, update, tray=None):
    """A copy of ``image`` (H, W, 3) uint8 BGR with the tray area, each read die's box and value,
    and the state (and SETTLED with the values on the frame that settled a throw)."""
    import cv2

    out = image.copy()
    h, w = out.shape[:2]
    scale = max(0.5, w / 900)
    if tray is not None:
        x, y, tw, th = tray
        cv2.rectangle(out, (x, y), (x + tw, y + th), (255, 200, 0), 1)
    reading = update.settled.reading if update.settled is not None else update.reading
    if reading is not None:
        colour = (0, 220, 0) if reading.ok else (0, 0, 255)
        for die in reading.dice:
            x, y, bw, bh = die.box
            cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, 2)
            cv2.putText(out, str(die.value), (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2, cv2.LINE_AA)
    label = update.state
    if update.settled is not None:
        r = update.settled.reading
        label = f"SETTLED {' '.join(map(str, r.values))}" if r.ok else f"SETTLED unreadable: {r.reason}"
    elif reading is not None and not reading.ok:
        label += f" ({reading.reason})"
    cv2.rectangle(out, (0, 0), (w, int(28 * scale)), (0, 0, 0), -1)
    cv2.putText(out, label, (6, int(20 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale,
                STATE_COLOURS.get(update.state, (255, 255, 255)), 1, cv2.LINE_AA)
    return out
