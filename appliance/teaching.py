"""The table's own dice between the store and the reader: teach throws, fit the adaptation, read with it.

The store keeps the labelled crops of taught throws (``Store.add_throws``); ``fit_kept`` fits the
adaptation on every crop the table keeps (``vision.adapt.fit``, its held-aside check included; the
guided setup runs it in a thread of its own) and ``save_fit`` saves it, or its absence, with the
reason, as the setting ``adaptation``. ``dicetable teach``, the kiosk and
``dicetable read/watch --state`` read with ``adaptation(store)``: the saved one when it was
fitted on the crops kept now and on the face model shipped now, else one fitted afresh (a pulled
plug between keeping the crops and saving the fit, a new face model): it is never stale.

The journal gets one line per fit: used or not, and why.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import NamedTuple

log = logging.getLogger(__name__)

KEY = "adaptation"


def _models():
    from vision.reader import _models as shipped

    return shipped()


def _face_model() -> str:
    """The stamp of the models an adaptation is fitted on: the face reader's heads sit on its
    embedding, the table's die threshold on the gate's weights."""
    from vision.adapt import model_id
    from vision.reader import MODELS

    return model_id(MODELS / "face.onnx", MODELS / "gate.json")


class Kept(NamedTuple):
    """Every crop the store keeps (``vision.adapt.Examples``) and the stamp a fit of them is saved
    with: what makes a saved fit current (``adaptation``)."""

    examples: object
    stamp: dict


def kept(store) -> Kept:
    """What the store keeps to fit on, read now (in the store's thread)."""
    from vision.adapt import Examples

    crops, labels, throws, scores = store.examples()
    stamp = {"face_model": _face_model(), "last_throw": int(throws.max()) if len(throws) else 0,
             "crops": int(len(labels))}
    return Kept(Examples(crops, labels, throws, scores), stamp)


def current(store, stamp: dict) -> bool:
    """Whether a fit stamped ``stamp`` (``Kept.stamp``) is of the crops the store keeps now, on the
    face model shipped now."""
    _throws, crops, last = store.count_examples()
    return _stamps(stamp, crops, last)


def _stamps(stamp: dict, crops: int, last: int) -> bool:
    """Whether ``stamp`` is of ``crops`` taught crops whose newest throw is ``last``, on the face
    model shipped now."""
    return stamp.get("face_model") == _face_model() and stamp.get("last_throw") == last and stamp.get("crops") == crops


def fit_kept(what: Kept, models=None):
    """The ``vision.adapt.Fitted`` of ``what`` (``kept``). Touches no store: safe in a thread of its
    own (a full store's fit takes seconds, the kiosk's screen does not wait for it)."""
    from vision.adapt import fit

    models = models or _models()
    return fit(models.faces, what.examples, face_model=what.stamp["face_model"], gate=models.gate)


def save_fit(store, fitted, what: Kept) -> None:
    """Save ``fitted`` (or that there is none, and why), fitted on ``what``, in one commit."""
    log.info("the table's dice: %s", fitted.reason)  # (``adaptation``'s callers say theirs)
    _save(store, fitted, what.stamp)


def _save(store, fitted, stamp) -> None:
    saved = {**stamp, "reason": fitted.reason,
             "heads": None if fitted.adaptation is None else fitted.adaptation.to_json()}
    store.save_settings({KEY: json.dumps(saved)})


class Before(NamedTuple):
    """What the store knows of a throw about to be taught: ``same``, the very same throw is kept
    already (or comes earlier in the same batch); ``relabels``, the id of a kept throw of the same
    photo taught with other values, or None; ``repeats``, the index in the batch of the earlier
    throw it repeats, or None (its first time in the batch)."""

    same: bool
    relabels: int | None
    repeats: int | None = None


def taught_before(store, throws) -> list[Before]:
    """For each of ``throws`` (pairs of crops and values, as ``teach`` takes them), whether the store
    keeps its photo already: the same crops byte for byte, in any order (a new photo of the same dice
    differs), with the same values or with others (the earlier values were wrong, or these are)."""
    crops, values, ids, _scores = store.examples()
    kept: dict[int, list[tuple]] = {}
    for crop, value, throw in zip(crops, values, ids):
        kept.setdefault(int(throw), []).append((crop, value))
    stored = {_digest(*zip(*dice)) for dice in kept.values()}
    photos = {_digest([c for c, _v in dice]): throw for throw, dice in kept.items()}
    batch: dict[bytes, int] = {}
    out = []
    for i, (throw_crops, throw_values) in enumerate(throws):
        digest = _digest(throw_crops, throw_values)
        repeats = batch.get(digest)
        same = digest in stored or repeats is not None
        out.append(Before(same, None if same else photos.get(_digest(throw_crops)), repeats))
        batch.setdefault(digest, i)
    return out


def _digest(crops, values=None) -> bytes:
    """A throw's fingerprint: its crops' bytes, with their values if given, in no particular order."""
    import numpy as np

    values = [0] * len(crops) if values is None else values
    dice = sorted(np.ascontiguousarray(c).tobytes() + bytes([int(v)]) for c, v in zip(crops, values))
    return hashlib.sha1(b"".join(dice)).digest()


def adaptation(store, models=None):
    """(the ``vision.adapt.Adaptation`` to read with or None, the reason in one sentence): the
    saved one when it is current, else fitted afresh (see the module docstring) and, in a store
    open for writing, saved, so that the next reader finds it current (a fit of a hundred taught
    throws takes seconds)."""
    from vision.adapt import Adaptation

    saved = _saved(store)
    _throws, crops, last = store.count_examples()  # once: a query over every kept crop
    if crops == 0:
        return None, "no dice taught at this table: the shipped model reads"
    if saved and _stamps(saved, crops, last):
        try:
            heads = saved.get("heads")
            return (None if heads is None else Adaptation.from_json(heads)), str(saved.get("reason", ""))
        except ValueError:
            pass  # a damaged setting: fitted again below
    what = kept(store)
    fitted = fit_kept(what, models)
    if not store.read_only:
        from appliance.store import STORE_ERRORS

        try:
            _save(store, fitted, what.stamp)
        except STORE_ERRORS as exc:  # a full disk: read with it all the same, fit again next time
            log.warning("the table's dice: the fit could not be saved (%s)", exc)
    return fitted.adaptation, fitted.reason


def _saved(store) -> dict | None:
    text = store.setting(KEY)
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def reader(state_dir, name: str):
    """``vision.reader.read_dice`` reading with the adaptation of the table whose state directory is
    ``state_dir`` (``dicetable read/watch --state``), if it has one; the reason goes to standard
    error, prefixed with the command's ``name``. The store is opened read-only: never created,
    moved, repaired or upgraded (the kiosk's job). A store that cannot be used (damaged, of another
    version, unreadable) is said ("adaptation not used: cannot use the taught dice: ...") and the
    shipped model reads.
    None, with the reason on standard error, when the directory holds no store (a mistyped path)."""
    import sqlite3
    import sys
    from functools import partial
    from pathlib import Path

    from appliance.store import FILENAME, Store, StoreError, foreign_files
    from vision.reader import read_dice

    if not Path(state_dir).is_dir():
        what = "is not a directory" if Path(state_dir).exists() else "does not exist"
        print(f"{name}: the state directory {state_dir} {what} (give the directory that holds {FILENAME})",
              file=sys.stderr)
        return None
    if foreign_files(state_dir):  # teach would refuse it too: no "teach them first" there
        print(f"{name}: {state_dir} holds no saved games store and other files (a folder of photos?): give the "
              "kiosk's state directory (the config's state_dir), or the one dicetable teach taught", file=sys.stderr)
        return None
    if not (Path(state_dir) / FILENAME).exists():
        print(f"{name}: {state_dir} holds no taught dice (teach them first: dicetable teach ... --state {state_dir})",
              file=sys.stderr)
        return None
    try:
        with Store.open_read_only(state_dir) as store:
            found, reason = adaptation(store)
    except StoreError as exc:  # its message names the file
        found, reason = None, f"cannot use the taught dice: {exc.strerror}; the shipped model reads"
    except (sqlite3.Error, ValueError) as exc:  # SQLite's does not
        found, reason = None, (f"cannot use the taught dice in {Path(state_dir) / FILENAME}: {exc}; "
                               "the shipped model reads")
    print(f"{name}: adaptation {'used' if found is not None else 'not used'}: {reason}", file=sys.stderr)
    return partial(read_dice, adaptation=found)


def keep_throw(store, image, values, source: str, models=None) -> int:
    """Keep one throw the table was told the values of as taught dice: ``image`` (H, W, 3) uint8
    BGR, ``values`` its dice (1-6, any order), ``source`` ("teach", "correction"). Returns the
    throw's id in the store. Raises ``vision.examples.LabelError`` (nothing kept) when the reader
    finds more dice there, or too few (``vision.examples.from_values``). The adaptation takes it in
    at its next fit."""
    from vision.examples import from_values

    return store.add_throws([from_values(image, values, models or _models())], source)[0]


def keep_correction(store, image, reading, values, misread, models=None) -> bool:
    """Keep a throw corrected by hand on the kiosk as taught dice: ``image`` (H, W, 3) uint8 BGR and
    ``reading`` the camera's latest settled throw (``CameraPipeline.last_settled``), ``values`` the
    dice entered, ``misread`` the roll they replace (None: entered for a roll due now). Kept only when
    that frame is the throw corrected: the misread roll was its reading, or (a roll due now) its
    reading was unreadable, not for a die cocked or off the tray (a leaning die's crop is no top
    face); and when the reader finds as many dice there as values. Returns whether
    it was kept; the journal says why not. The adaptation takes it in at the next start."""
    from vision.examples import LabelError
    from vision.reading import RETHROW_KINDS

    if image is None or reading is None:
        return False
    if reading.kind in RETHROW_KINDS:  # a Mäxle die cocked under the cup, entered by hand for the game
        log.info("a hand correction not kept as taught dice: a die was %s", reading.kind.replace("_", " "))
        return False
    # The frame is the corrected throw when the camera read it as the misread roll, or (a roll due
    # now, entered by hand) when the camera could not read it.
    if misread is not None:
        same_throw = reading.ok and sorted(reading.values) == sorted(misread)
    else:
        same_throw = not reading.ok
    if not same_throw:
        log.info("a hand correction not kept as taught dice: the camera's last throw is not the one corrected")
        return False
    try:
        keep_throw(store, image, values, "correction", models)
    except LabelError as exc:
        log.info("a hand correction not kept as taught dice: %s", exc)
        return False
    log.info("kept a throw corrected by hand (%s) as taught dice", " ".join(map(str, values)))
    return True


class TableReader:
    """The kiosk's reader: ``vision.reader.read_dice`` with the table's adaptation, which can be
    dropped while it runs ("forget these dice" on the menu). Called as ``read_dice`` is, from the
    camera thread; ``adaptation`` is replaced whole, never changed in place."""

    def __init__(self, adaptation=None):
        self.adaptation = adaptation

    def __call__(self, image, expected=None, reference=None):
        from vision.reader import read_dice

        return read_dice(image, expected=expected, reference=reference, adaptation=self.adaptation)

    def forget(self) -> None:
        """Read with the shipped model from the next frame on."""
        self.adaptation = None

    def use(self, adaptation) -> None:
        """Read with ``adaptation`` (a ``vision.adapt.Adaptation``, or None: as shipped) from the
        next frame on (the guided setup taught the table its dice)."""
        self.adaptation = adaptation
