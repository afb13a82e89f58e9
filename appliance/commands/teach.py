"""Teach the table its own dice: keep labelled throws in its store and adapt the face reader to them.

IMAGE... with --values: each IMAGE is one throw, and each --values (given once per IMAGE, in the
same order) says what its dice show, in any order ("1 3 3 4 6"). The reader finds the dice; there
must not be more than values, and when there are fewer the candidates it doubted ("may be a die")
make up the number, if there are enough of them (``vision.examples.from_values``). The values go to
the dice as the shipped face reader finds likeliest (a die it misread gets the value left over);
the other candidates are kept as "not a die". A throw the table reads surely as other values is
taught as given and said (a correction, or a typo to teach again).

--manifest FILE reads labelled photos of a manifest in the dice-photos format (their label boxes
give each die's value; excluded rows are skipped), the first --limit N of them (--source NAME:
only that source's). A photo where the reader finds none of the labelled dice (too small, too
crowded, unlike any die it knows) is named and skipped, as long as another photo teaches; a value
outside 1-6 stops it all, as below.

--forget removes every taught crop and the adaptation: the table reads with the shipped model again.

Every throw is checked before anything is kept: a count the reader cannot see there, a value outside
1-6 or an image that cannot be read is an error (exit status 2) and nothing changes. A throw the
table keeps already (the same photo taught again: the same dice crops, byte for byte, with the same
values) is named and skipped; one it keeps with other values is named and the new values replace
them (the earlier ones were a mistake). Then the new throws are kept in one commit (at most 3,000
crops, the oldest throws out first), the adaptation is fitted on all the table keeps and used only
when it reads the held-aside throws no worse than the shipped model, and better, with the table's
own die threshold when that counts more taught throws right (``vision.adapt``); the last line says
which, and why. `dicetable read/watch --state DIR` then read with it. Ctrl-C (exit status 130) says
whether the throws were kept; a fit it cut off is made by the next read.

--state DIR is the table's state directory (default: the appliance's, /var/lib/dicetable). It must
exist (a mistyped path is refused, not made); teaching makes the store in it if there is none yet,
--forget needs one. It is held as the kiosk holds it (its kiosk.lock): while a kiosk plays there,
teaching is refused (the kiosk reads with what it was taught when it started; its guided setup
teaches it on the spot), and a kiosk does not start while a teach runs. A store there that cannot be used (damaged, of a newer version) is refused and
left where it is: it holds the kiosk's games, which the kiosk itself sets aside for the staff.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from appliance.commands import argtypes
from appliance.commands.text import counted

NAME = "dicetable teach"
TAUGHT, FORGOT = "taught ", "forgot "  # the report's line once the throws are kept, or forgotten


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``dicetable teach``."""
    from appliance.config import DEFAULT_STATE_DIR

    parser.add_argument("images", nargs="*", type=Path, metavar="IMAGE", help="photos of taught throws, one throw each")
    parser.add_argument("--values", action="append", default=[], metavar='"V V ..."',
                        help="the values one IMAGE's dice show, any order (once per IMAGE, in their order)")
    parser.add_argument("--manifest", type=Path, metavar="FILE", help="labelled photos (dice-photos manifest.csv)")
    parser.add_argument("--limit", type=argtypes.positive(int), metavar="N", help="--manifest: its first N photos")
    parser.add_argument("--source", metavar="NAME", help="--manifest: only this source's photos")
    parser.add_argument("--forget", action="store_true", help="forget these dice: remove every taught crop")
    parser.add_argument("--state", type=argtypes.state_directory, default=DEFAULT_STATE_DIR, metavar="DIR",
                        help=f"the table's state directory, or its dicetable.sqlite3 (default {DEFAULT_STATE_DIR})")


def run(args: argparse.Namespace) -> int:
    """Teaches, or forgets; returns the exit status (0, or 2 for bad labels or images, nothing kept)."""
    problem = _usage_problem(args) or _state_problem(args)
    if problem:
        print(f"{NAME}: {problem}", file=sys.stderr)
        return 2
    notes: list[str] = []  # what the table reads otherwise than taught, said with the report
    try:  # every throw checked before the directory is touched
        throws = None if args.forget else _throws(args, notes.append)
    except ValueError as exc:  # LabelError, an unreadable image or manifest: nothing kept
        print(f"{NAME}: {exc}; nothing was taught", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while the photos are read
        print(f"{NAME}: interrupted; nothing was changed", file=sys.stderr)
        return 130
    from appliance.store import StateBusy, StoreError, claim

    try:  # the kiosk's lock: a kiosk playing there reads with what it was taught when it started
        held = claim(args.state)
    except StateBusy as exc:
        print(f"{NAME}: the kiosk or another teach (pid {exc.pid or 'unknown'}) holds {args.state}: teach the kiosk "
              "from its menu (Set up the table), or stop it first (sudo systemctl stop dicetable); nothing was changed",
              file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"{NAME}: {exc.strerror}; nothing was changed", file=sys.stderr)
        return 2
    try:
        return _write(args, throws, notes)
    finally:
        if held is not None:
            held.close()


def _write(args: argparse.Namespace, throws, notes: list[str]) -> int:
    """Keeps ``throws`` (or forgets, ``--forget``) in ``args.state``'s store, held by this process;
    prints ``notes`` and the report after."""
    from appliance.store import STORE_ERRORS, Store, StoreError

    try:  # a damaged or newer store is refused, not set aside: it holds the kiosk's games
        store = Store.open(args.state, move_aside=False)
    except StoreError as exc:
        print(f"{NAME}: {exc.strerror}; nothing was changed", file=sys.stderr)
        return 2
    said = list(notes)  # printed once the store is done: a full stdout is not a full store
    try:
        with store:
            if args.forget:
                said.append(f"{FORGOT}{counted(store.forget_examples(), 'taught die crop')} in {args.state}: "
                            "the shipped model reads")
            else:
                _keep(store, throws, args, said.append)
    except KeyboardInterrupt:  # Ctrl-C: kept in one commit, or not at all; said which
        print("\n".join(said), end="\n" if said else "")
        done = next((line for line in said if line.startswith((TAUGHT, FORGOT))), "")
        print(f"{NAME}: interrupted; " + ("the throws above are kept: the table learns from them when it next "
                                         "reads (the kiosk, read --state, or teach again)" if done.startswith(TAUGHT)
                                         else "the shipped model reads" if done else "nothing was changed"), file=sys.stderr)
        return 130
    except STORE_ERRORS as exc:  # locked by the kiosk, a full disk, a read-only mount
        print("\n".join(said), end="\n" if said else "")
        print(f"{NAME}: the store in {args.state} cannot be written ({getattr(exc, 'strerror', None) or exc}); "
              "nothing was changed", file=sys.stderr)
        return 2
    try:
        print("\n".join(said))
    except BrokenPipeError:  # the reader of our output stopped (`| head -1`)
        raise
    except OSError as exc:
        print(f"{NAME}: done in {args.state}, but its report could not be written ({exc.strerror or exc})",
              file=sys.stderr)
        return 74  # EX_IOERR, as every command whose output fails (appliance.cli)
    return 0


def _state_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--state`` (nothing is made for a mistyped path), or None."""
    from appliance.store import FILENAME, foreign_files

    state = args.state
    if not state.is_dir():
        what = "is not a directory" if state.exists() else "does not exist"
        return f"the state directory {state} {what} (a mistyped path? the kiosk's is the config's state_dir)"
    if args.forget and not (state / FILENAME).exists():
        return f"{state} holds no saved games store: there are no taught dice to forget"
    if foreign_files(state):
        return (f"{state} holds no saved games store and is not empty (a folder of photos? an unset variable?): "
                "give the kiosk's state directory (the config's state_dir), or an empty directory for a new store")
    return None


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the combination of arguments, or None."""
    forms = [bool(args.images), args.manifest is not None, args.forget]
    if sum(forms) != 1:
        return "give IMAGE... with --values, or --manifest FILE, or --forget (one of them)"
    if args.images and len(args.values) != len(args.images):
        stray = next((str(path) for path in args.images if _looks_like_values(path)), None)
        if stray is not None:  # `--values 5 5`: the shell split the values, the second became an IMAGE
            return (f'"{stray}" is not a photo but a value: quote each throw\'s values as one word '
                    f'(--values "5 5")')
        return (f"{len(args.images)} image(s) but {len(args.values)} --values: give one --values per IMAGE, "
                f'in the same order (e.g. a.jpg b.jpg --values "1 3 3 4 6" --values "2 5")')
    if not args.images and args.values:
        return "--values go with IMAGEs"
    if args.manifest is None and (args.limit is not None or args.source is not None):
        return "--limit and --source go with --manifest"
    return None


def _looks_like_values(path: Path) -> bool:
    """Whether an IMAGE operand is no file but die values (``5``, ``3 4``): a --values left unquoted."""
    words = str(path).split()
    return bool(words) and not path.exists() and all(word in {"1", "2", "3", "4", "5", "6"} for word in words)


def _keep(store, throws, args, say) -> None:
    """Keeps ``throws`` in ``store``, then fits the adaptation on all it keeps; each line of its
    report goes to ``say`` as soon as it holds (a Ctrl-C during the fit finds the throws said kept)."""
    from appliance import teaching
    from appliance.store import MAX_EXAMPLES

    before = teaching.taught_before(store, [(taught.crops, taught.labels) for _name, taught in throws])
    for (name, _taught), old in zip(throws, before):
        if old.repeats is not None:
            say(f"{name}: the same throw as {throws[old.repeats][0]} above, skipped")
        elif old.same:
            say(f"{name}: already taught at this table, skipped")
        elif old.relabels is not None:
            say(f"{name}: taught before with other values: these replace them")
    replacing = [old.relabels for old in before if old.relabels is not None]
    throws = [throw for throw, old in zip(throws, before) if not old.same]
    if not throws:
        # A fit cut off by a pulled plug after its throws were kept is made (and saved) now.
        _found, reason = teaching.adaptation(store)
        say(f"nothing new taught in {args.state}: the table keeps these throws already; {reason}")
        return
    had = store.throw_ids()
    store.add_throws([taught for _name, taught in throws], f"manifest {args.manifest.name}" if args.manifest else "teach",
                     replacing=replacing)  # one commit: kept whole or not at all
    dice = sum(int((taught.labels > 0).sum()) for _name, taught in throws)
    kept_throws, kept_crops, _last = store.count_examples()
    # The throws kept before that are gone, but for those replaced (another teach at the same time
    # may add its own: only these are counted); and this command's own that did not fit at all.
    kept_now = store.throw_ids()
    dropped = len(had - kept_now - set(replacing))
    fit = min(len(throws), len(kept_now - had))
    room = f"at most {MAX_EXAMPLES:,} crops"
    say(f"{TAUGHT}{counted(len(throws), 'throw')} ({counted(dice, 'die', 'dice')}) in {args.state}; "
        f"the table keeps {counted(kept_throws, 'throw')} ({counted(kept_crops, 'crop')})"
        + (f"; the oldest {counted(dropped, 'throw')} made room ({room})" if dropped else "")
        + (f"; only the last {fit} of these fit ({room}, the newest kept)" if fit < len(throws) else ""))
    # Fitted on everything the store keeps (these throws, and another teach's kept meanwhile) and
    # saved; a Ctrl-C from here on leaves the throws kept, as the line above says.
    _progress("fitting the table's adaptation")
    found, reason = teaching.adaptation(store)
    say(("adaptation used: " if found is not None else "adaptation not used: ") + reason)


def _throws(args, say) -> list:
    """[(name, ``vision.examples.Taught``)] of every taught throw, all checked; a throw the table
    reads surely otherwise is said to ``say``. Raises ValueError with the reason."""
    from vision.reader import _models

    models = _models()
    if args.manifest is not None:
        return _manifest_throws(args, models, say)
    from vision.examples import LabelError, from_values

    out, given = [], {}
    _progress(f"reading {counted(len(args.images), 'photo')}")
    for path, text in zip(args.images, args.values):
        values = argtypes.dice_words(text)
        frame = _image(path)
        first = _first_time(given, frame, path, values, text)
        try:
            taught = from_values(frame, values, models)
        except LabelError as exc:
            raise LabelError(f"{path}: {exc}") from None
        if first:  # a photo given again is said once, as it is kept once
            _said_otherwise(path, frame, taught, models, say)
        out.append((str(path), taught))
    return out


def _progress(text: str) -> None:
    """``text`` on a terminal's stderr, so that a person sees the tens of seconds of reading photos
    and fitting are work, not a hang; scripts (stderr not a terminal) get only the report."""
    if sys.stderr is not None and sys.stderr.isatty():
        print(f"{NAME}: {text} ...", file=sys.stderr, flush=True)


def _first_time(given: dict, frame, path, values, text: str) -> bool:
    """Whether the photo ``frame`` at ``path`` is given for the first time in this command (``given``:
    what was, by its pixels: a copy under another name is the same throw, kept once). Raises
    LabelError when it was given before with other values (``text``: the values as given)."""
    from vision.examples import LabelError

    photo = hashlib.sha1(frame.tobytes() + repr(frame.shape).encode()).digest()
    first = photo not in given
    earlier, said, said_text = given.setdefault(photo, (path, sorted(values), text))
    if said != sorted(values):
        again = "given twice" if Path(earlier).resolve() == Path(path).resolve() else f"the same photo as {earlier}"
        raise LabelError(f"{path}: {again}, with the values {said_text!r} and {text!r}: which are they?")
    return first


def _said_otherwise(path, frame, taught, models, say, mend: str = "teach it again with the right values") -> None:
    """Say so when the table reads the throw surely as other values than taught: a correction of a
    misread (what teaching is for), or a typo in --values or a label error in a manifest's row,
    which the user can still take back (``mend`` says how)."""
    from vision.reader import read_dice

    values = sorted(int(v) for v in taught.labels if v > 0)
    reading = read_dice(frame, expected=len(values), models=models)
    if reading.ok and list(reading.values) != values:
        say(f"{path}: the table reads {' '.join(map(str, reading.values))} there, taught as "
            f"{' '.join(map(str, values))} (a typo? {mend}: they replace these)")


def _manifest_throws(args, models, say) -> list:
    from vision.examples import LabelError, NoneFound, from_boxes
    from vision.photos import load_manifest

    try:
        photos = [p for p in load_manifest(args.manifest) if not p.excluded
                  and (args.source is None or p.source == args.source)]
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the manifest {args.manifest}: {getattr(exc, 'strerror', None) or exc}") from None
    if not photos:
        raise ValueError(f"no labelled photos in {args.manifest}" + (f" of the source {args.source}" if args.source else ""))
    out, none_found, given = [], [], {}
    photos = photos[:args.limit]
    _progress(f"reading {counted(len(photos), 'photo')}")
    for photo in photos:
        frame = _image(photo.path, args.manifest)
        first = _first_time(given, frame, photo.file, photo.values, " ".join(map(str, photo.values)))
        try:
            taught = from_boxes(frame, photo, models)
        except NoneFound as exc:  # the reader's limit in that photo, not a wrong label: the others teach
            none_found.append(f"{photo.file}: {exc}")
            continue
        except LabelError as exc:
            raise LabelError(f"{photo.file}: {exc}") from None
        if first:  # a row given again is said once, as it is kept once
            _said_otherwise(photo.file, frame, taught, models, say, "mend the manifest's row and teach it again")
        out.append((photo.file, taught))
    if not out:  # none at all: boxes of other images, or dice this reader cannot find
        raise LabelError(none_found[0] + ("" if len(none_found) == 1 else f" (and in the other {len(none_found) - 1} photos)"))
    for line in none_found:
        say(f"{line}: skipped")
    return out


def _image(path: Path, manifest: Path | None = None):
    """The (H, W, 3) uint8 BGR image at ``path`` (a photo of ``manifest``'s, if given). Raises
    ValueError naming it (and the manifest whose row names it)."""
    from appliance.commands.read import _not_an_image
    from vision.images import ImageError, load_image

    try:
        return load_image(path)
    except ImageError as exc:
        if manifest is not None:  # the row is what to mend: the hints for IMAGE arguments do not apply
            raise ValueError(f"{path}, a photo of {manifest}: {exc.reason}") from None
        raise ValueError(_not_an_image(Path(path), exc.reason)) from None
