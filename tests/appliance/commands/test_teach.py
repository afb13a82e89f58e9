"""dicetable teach: labelled throws are kept and the table adapts; bad labels change nothing;
read and watch with --state read with the table's adaptation, and without it as shipped."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.cli import main
from appliance.store import Store
from vision.adapt import Adaptation
from vision.faces import FaceReader
from vision.synth import TableLook, render_still

THROWS = [(3, 4, 5), (6, 1, 1), (5, 6, 2), (2, 6, 3), (2, 5, 2), (3, 4, 4)]


def _render(folder, throws, first_seed: int) -> list:
    look = TableLook.random(3, (640, 480))
    paths = []
    for n, values in enumerate(throws):
        image, _truth = render_still(values, seed=first_seed + n, look=look)
        paths.append(folder / f"throw{first_seed + n}.png")
        cv2.imwrite(str(paths[-1]), image)
    return paths


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Photos of six throws of one synthetic table (THROWS' values)."""
    return _render(tmp_path_factory.mktemp("throws"), THROWS, 200)


@pytest.fixture(scope="module")
def taught_once(photos, tmp_path_factory):
    """A state directory taught the six throws once (copied by the tests that only read it)."""
    state = tmp_path_factory.mktemp("taught")
    assert main(["teach", *teach_args(photos), "--state", str(state)]) == 0
    return state


@pytest.fixture
def taught(taught_once, tmp_path):
    state = tmp_path / "state"
    shutil.copytree(taught_once, state)
    return state


def teach_args(paths, throws=THROWS):
    return [str(p) for p in paths] + [a for v in throws for a in ("--values", " ".join(map(str, v)))]


def kept(state):
    with Store.open(state) as s:
        return s.count_examples(), s.setting("adaptation")


def test_teaching_keeps_the_throws_and_says_whether_the_adaptation_is_used(taught, tmp_path, capsys):
    more = _render(tmp_path, THROWS[:2], 300)  # two new photos of throws like the first two
    assert main(["teach", *teach_args(more, THROWS[:2]), "--state", str(taught)]) == 0
    out = capsys.readouterr().out
    # The shipped model reads these synthetic throws right already: an adaptation could do no better.
    assert "taught 2 throws (6 dice)" in out and "adaptation not used: the heads read no better" in out
    (throws, crops, _last), saved = kept(taught)
    assert throws == 8 and crops >= 24 and "read no better" in json.loads(saved)["reason"]


def test_a_person_at_a_terminal_sees_the_reading_and_the_fit_as_work_and_a_script_only_the_report(
        photos, tmp_path, capsys, monkeypatch):
    # Taught 30 photos of a manifest, it printed nothing for 30-50 s, and looked hung.
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["teach", *teach_args(photos[:2], THROWS[:2]), "--state", str(tmp_path / "a")]) == 0
    assert terminal.getvalue().splitlines() == ["dicetable teach: reading 2 photos ...",
                                               "dicetable teach: fitting the table's adaptation ..."]
    assert "taught 2 throws" in capsys.readouterr().out
    monkeypatch.undo()
    assert main(["teach", *teach_args(photos[:2], THROWS[:2]), "--state", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("change, message", [
    (lambda a: a[:-1] + ["3 4"], "finds 3 dice there, but 2 values were given"),
    (lambda a: a[:-1] + ["3 4 7"], "a die's value is 1-6, not '7'"),
    (lambda a: ["missing.png"] + a[1:], "missing.png: no such file"),
    (lambda a: a[:-2], "6 image(s) but 5 --values"),
    # `--values 5 5` unquoted: the shell makes the second value an IMAGE
    (lambda a: a[:-1] + a[-1].split(), f'"{THROWS[-1][-1]}" is not a photo but a value'),
])
def test_bad_labels_are_an_error_and_change_nothing(photos, taught, capsys, change, message):
    before = kept(taught)
    capsys.readouterr()
    assert main(["teach", *change(teach_args(photos)), "--state", str(taught)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert kept(taught) == before


def test_a_bad_label_on_a_new_table_creates_no_store(photos, tmp_path, capsys):
    assert main(["teach", str(photos[0]), "--values", "1 2", "--state", str(tmp_path / "new")]) == 2
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("values", ["1 2 7", "1 2"])
def test_a_bad_label_in_an_empty_state_directory_leaves_it_empty(photos, tmp_path, capsys, values):
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", str(photos[0]), "--values", values, "--state", str(state)]) == 2
    assert "nothing was taught" in capsys.readouterr().err and list(state.iterdir()) == []  # no store, no lock


def force_threes(state):
    """Save heads that read every die as a 3, stamped as fitted on what the store keeps (the shipped
    model reads these synthetic throws right already, so a fitted head would not be used)."""
    with Store.open(state) as s:
        saved = json.loads(s.setting("adaptation"))
        e = FaceReader().embedding_size
        threes = Adaptation(np.zeros(e), np.ones(e), np.zeros((e, 6)), np.array([0, 0, 60.0, 0, 0, 0]),
                            np.zeros(e), 0.0, saved["face_model"])
        s.save_settings({"adaptation": json.dumps({**saved, "heads": threes.to_json()})})


def test_read_with_state_reads_with_the_tables_adaptation_and_without_it_as_shipped(photos, taught, capsys):
    force_threes(taught)
    capsys.readouterr()
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(taught)]) == 0
    assert capsys.readouterr().out.startswith(f"{photos[0]}: 3 3 3")
    assert main(["read", str(photos[0]), "--dice", "3"]) == 0
    assert capsys.readouterr().out.startswith(f"{photos[0]}: 3 4 5")


def test_watch_with_state_reads_with_the_tables_adaptation(photos, taught, tmp_path, capsys):
    force_threes(taught)
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.png").write_bytes(photos[1].read_bytes())
    capsys.readouterr()
    assert main(["watch", str(folder), "--dice", "3", "--hold", "1", "--state", str(taught)]) == 0
    assert ": 3 3 3" in capsys.readouterr().out
    assert main(["watch", str(folder), "--dice", "3", "--hold", "1"]) == 0
    assert ": 1 1 6" in capsys.readouterr().out


def test_forgetting_the_dice_makes_the_table_read_as_shipped(photos, taught, capsys):
    force_threes(taught)
    assert main(["teach", "--forget", "--state", str(taught)]) == 0
    assert "forgot" in capsys.readouterr().out
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(taught)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{photos[0]}: 3 4 5") and "no dice taught" in captured.err


def test_read_with_a_state_that_holds_no_store_is_an_error_and_creates_nothing(photos, tmp_path, capsys):
    assert main(["read", str(photos[0]), "--state", str(tmp_path)]) == 2
    assert "holds no taught dice" in capsys.readouterr().err and list(tmp_path.iterdir()) == []
    assert main(["read", str(photos[0]), "--state", str(tmp_path / "none")]) == 2
    assert f"the state directory {tmp_path / 'none'} does not exist" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
    # A folder of photos: teach would refuse it too, so read does not say "teach them first" there.
    (tmp_path / "photo.png").write_bytes(photos[0].read_bytes())
    assert main(["read", str(photos[0]), "--state", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "holds no saved games store and other files" in err and "teach them first" not in err


def test_read_with_the_store_file_reads_as_with_its_directory_and_another_file_says_which_to_give(
        photos, taught, capsys):
    force_threes(taught)
    capsys.readouterr()
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(taught / "dicetable.sqlite3")]) == 0
    assert capsys.readouterr().out.startswith(f"{photos[0]}: 3 3 3")  # as summary and replay take it
    assert main(["read", str(photos[0]), "--state", str(photos[1])]) == 2
    assert "is not a directory (give the directory that holds dicetable.sqlite3)" in capsys.readouterr().err


def _files(state) -> dict:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir())}


@pytest.mark.parametrize("spoil, said", [
    (lambda path: _set_version(path, 99), "saved by a newer version (schema 99"),
    (lambda path: path.write_bytes(b"garbage, not a database" * 300), "not a Dice Table store (no database at all)"),
])
def test_read_and_watch_with_a_store_they_cannot_use_say_so_read_as_shipped_and_move_nothing(
        photos, taught, tmp_path, capsys, spoil, said):
    spoil(taught / "dicetable.sqlite3")
    before = _files(taught)
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(taught)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{photos[0]}: 3 4 5")
    assert f"dicetable read: adaptation not used: cannot use the taught dice: {taught / 'dicetable.sqlite3'}: {said}" in captured.err
    assert "the shipped model reads" in captured.err
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.png").write_bytes(photos[1].read_bytes())
    assert main(["watch", str(folder), "--dice", "3", "--hold", "1", "--state", str(taught)]) == 0
    captured = capsys.readouterr()
    assert ": 1 1 6" in captured.out and "dicetable watch: adaptation not used: cannot use the taught dice" in captured.err
    assert _files(taught) == before  # not moved aside, not replaced, no -wal or -shm made


def _set_version(path, version: int) -> None:
    import sqlite3

    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()


def test_read_with_the_state_of_a_read_only_mount_reads_with_the_tables_adaptation(photos, taught, read_only, capsys):
    force_threes(taught)
    before = _files(taught)
    read_only(taught / "dicetable.sqlite3", taught)
    capsys.readouterr()
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(taught)]) == 0
    assert capsys.readouterr().out.startswith(f"{photos[0]}: 3 3 3")
    assert _files(taught) == before


@pytest.mark.parametrize("forget", [False, True])
def test_teach_with_a_state_directory_that_does_not_exist_is_refused_and_makes_nothing(photos, tmp_path, capsys, forget):
    typo = tmp_path / "dicetabel"
    args = ["--forget"] if forget else [str(photos[0]), "--values", "3 4 5"]
    assert main(["teach", *args, "--state", str(typo)]) == 2
    err = capsys.readouterr().err
    assert f"the state directory {typo} does not exist" in err and "Traceback" not in err
    assert not typo.exists()


@pytest.mark.parametrize("other", [None, "dicetable.sqlite3-photo.jpg", "kiosk.lock.txt"])
def test_teaching_into_a_folder_of_other_files_is_refused_and_makes_no_store_there(photos, tmp_path, capsys, other):
    folder = photos[0].parent  # the photos' own folder: --state given the wrong path
    if other is not None:  # a folder holding only a file named like one of the kiosk's
        folder = tmp_path / "other"
        folder.mkdir()
        (folder / other).write_bytes(b"not the kiosk's")
    before = sorted(folder.iterdir())
    assert main(["teach", str(photos[0]), "--values", "3 4 5", "--state", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"{folder} holds no saved games store and is not empty" in err and "Traceback" not in err
    assert sorted(folder.iterdir()) == before


def test_a_state_directory_whose_store_was_set_aside_is_still_the_tables(photos, tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    (state / "dicetable.sqlite3.broken-20261207-090000").write_bytes(b"the kiosk set it aside")
    (state / "kiosk.lock").write_text("")
    assert main(["teach", str(photos[0]), "--values", "3 4 5", "--state", str(state)]) == 0
    assert (state / "dicetable.sqlite3").exists()


def test_forgetting_where_there_is_no_store_is_refused_and_makes_none(tmp_path, capsys):
    assert main(["teach", "--forget", "--state", str(tmp_path)]) == 2
    assert f"{tmp_path} holds no saved games store: there are no taught dice to forget" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("forget", [False, True])
def test_teaching_while_a_kiosk_plays_on_the_state_is_refused_and_changes_nothing(photos, taught, capsys, forget):
    from appliance.store import claim

    before = kept(taught)
    held = claim(taught)  # the kiosk's lock
    try:
        args = ["--forget"] if forget else teach_args(photos[:1], [(1, 1, 1)])
        assert main(["teach", *args, "--state", str(taught)]) == 2
    finally:
        held.close()
    err = capsys.readouterr().err
    assert f"the kiosk or another teach (pid {__import__('os').getpid()}) holds {taught}" in err and "nothing was changed" in err
    assert kept(taught) == before


def test_the_same_photo_taught_again_is_said_and_skipped(photos, taught, tmp_path, capsys):
    before = kept(taught)
    capsys.readouterr()
    assert main(["teach", str(photos[0]), "--values", "5 4 3", "--state", str(taught)]) == 0
    out = capsys.readouterr().out
    assert f"{photos[0]}: already taught at this table, skipped" in out and "nothing new taught" in out
    assert kept(taught) == before
    assert main(["teach", *teach_args([photos[0]] * 2, [(5, 4, 3)] * 2), "--state", str(taught)]) == 0
    out = capsys.readouterr().out  # given twice too: the second is said as the repeat it is
    assert f"{photos[0]}: already taught at this table, skipped\n{photos[0]}: the same throw as {photos[0]} above" in out
    new = _render(tmp_path, [THROWS[0]], 400)[0]
    args = [str(photos[1]), str(new), str(new)]
    assert main(["teach", *teach_args(args, [THROWS[1], THROWS[0], THROWS[0]]), "--state", str(taught)]) == 0
    out = capsys.readouterr().out
    assert f"{photos[1]}: already taught" in out and f"{new}: the same throw as {new} above, skipped" in out
    assert "taught 1 throw (3 dice)" in out
    assert kept(taught)[0][0] == before[0][0] + 1


def test_a_photo_taught_again_with_other_values_replaces_them(photos, taught, capsys):
    (throws, crops, _last), _saved = kept(taught)
    capsys.readouterr()
    assert main(["teach", str(photos[0]), "--values", "3 4 4", "--state", str(taught)]) == 0
    out = capsys.readouterr().out
    assert f"{photos[0]}: taught before with other values: these replace them" in out
    with Store.open(taught) as s:
        _crops, values, ids, _scores = s.examples()
        assert s.count_examples()[:2] == (throws, crops)  # one throw out, the same photo in
    assert sorted(values[ids == ids.max()][values[ids == ids.max()] > 0]) == [3, 4, 4]
    assert 1 not in ids  # the first throw taught was this photo with 3 4 5


def test_a_manifest_that_is_not_utf8_is_named_with_the_reason_and_nothing_is_taught(taught, tmp_path, capsys):
    manifest = tmp_path / "manifest.csv"
    manifest.write_bytes(b"file,source\n\xff\xfe latin-1 bytes\n")
    before = kept(taught)
    assert main(["teach", "--manifest", str(manifest), "--state", str(taught)]) == 2
    err = capsys.readouterr().err
    assert f"cannot read the manifest {manifest}: not UTF-8 text (the byte 0xff at position 12)" in err
    assert "codec" not in err and kept(taught) == before


def _manifest(folder, rows) -> Path:
    """A manifest in the dice-photos format of (photo, values in box order, boxes) rows."""
    lines = ["file,source,n_dice,values,boxes,values_in_box_order,notes,table_like,excluded,width,height"]
    for photo, values, boxes in rows:
        box_text = ";".join(",".join(map(str, b)) for b in boxes)
        lines.append(f'{photo.name},synthetic,{len(values)},{" ".join(map(str, sorted(values)))},"{box_text}",'
                     f'{" ".join(map(str, values))},,1,0,640,480')
    (folder / "manifest.csv").write_text("\n".join(lines) + "\n")
    return folder / "manifest.csv"


@pytest.mark.parametrize("values, shift, message", [
    ((3, 4, 9), 0, "a die's value is 1-6, not 9"),
    ((3, 0, 5), 0, "a die's value is 1-6, not 0"),
    ((3, 4, 5), 2000, "the reader finds none of the 3 labelled dice where their boxes are"),
])
def test_a_manifest_row_whose_labels_do_not_fit_its_photo_is_named_and_nothing_is_taught(
        taught, tmp_path, capsys, values, shift, message):
    image, truth = render_still(THROWS[0], seed=200, look=None)
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), image)
    boxes = [(x + shift, y, w, h) for x, y, w, h in (d.box for d in truth)]
    manifest = _manifest(tmp_path, [(photo, values, boxes)])
    before = kept(taught)
    capsys.readouterr()
    assert main(["teach", "--manifest", str(manifest), "--state", str(taught)]) == 2
    err = capsys.readouterr().err
    assert f"throw.png: {message}" in err and "Traceback" not in err
    assert kept(taught) == before


def test_each_image_may_be_followed_by_its_values(photos, tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    words = [" ".join(map(str, values)) for values in THROWS[:2]]
    assert main(["teach", str(photos[0]), "--values", words[0], str(photos[1]), "--values", words[1],
                 "--state", str(state)]) == 0
    assert "taught 2 throws" in capsys.readouterr().out and kept(state)[0][0] == 2


def test_one_photo_given_twice_with_other_values_is_refused_and_nothing_is_taught(photos, taught, capsys):
    before = kept(taught)
    capsys.readouterr()
    args = ["teach", str(photos[0]), str(photos[0]), "--values", "3 4 5", "--values", "3 4 4", "--state", str(taught)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{photos[0]}: given twice, with the values '3 4 5' and '3 4 4': which are they?" in err
    assert kept(taught) == before
    state = taught.parent / "fresh"
    state.mkdir()
    assert main(["teach", str(photos[0]), str(photos[0]), "--values", "3 4 5", "--values", "5,4,3", "--state", str(state)]) == 0
    assert kept(state)[0][0] == 1  # taught once


def test_a_copy_of_a_photo_under_another_name_with_other_values_is_refused_and_nothing_is_taught(photos, taught,
                                                                                               tmp_path, capsys):
    copy = tmp_path / "copy.png"
    copy.write_bytes(photos[0].read_bytes())
    before = kept(taught)
    capsys.readouterr()
    assert main(["teach", str(photos[0]), str(copy), "--values", "3 4 5", "--values", "3 4 4", "--state", str(taught)]) == 2
    err = capsys.readouterr().err
    assert f"{copy}: the same photo as {photos[0]}, with the values '3 4 5' and '3 4 4': which are they?" in err
    assert kept(taught) == before


def test_a_manifest_with_one_photo_in_two_rows_with_other_values_is_refused_and_nothing_is_taught(tmp_path, capsys):
    image, truth = render_still(THROWS[0], seed=200, look=None)
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), image)
    boxes = [d.box for d in truth]
    right = [d.value for d in truth]
    manifest = _manifest(tmp_path, [(photo, right, boxes), (photo, [v % 6 + 1 for v in right], boxes)])
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", "--manifest", str(manifest), "--state", str(state)]) == 2
    err = capsys.readouterr().err
    assert "throw.png: given twice, with the values '3 4 5' and '4 5 6': which are they?" in err
    assert not (state / "dicetable.sqlite3").exists() or kept(state)[0][0] == 0


def test_a_manifest_box_that_misses_its_die_teaches_the_others_and_nothing_as_not_a_die(tmp_path, capsys):
    image, truth = render_still(THROWS[0], seed=200, look=None)
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), image)
    boxes = [d.box for d in truth]
    boxes[1] = (5000, 5000, 10, 10)  # off the image: its die is one of the reader's finds all the same
    manifest = _manifest(tmp_path, [(photo, [d.value for d in truth], boxes)])
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", "--manifest", str(manifest), "--state", str(state)]) == 0
    with Store.open(state) as s:
        _crops, values, _ids, _scores = s.examples()
    assert sorted(values) == sorted(v for i, v in enumerate(d.value for d in truth) if i != 1)


@pytest.mark.parametrize("spoil, said", [
    (lambda path: _set_version(path, 99), "saved by another version (schema 99)"),
    (lambda path: path.write_bytes(b"garbage, not a database" * 300), "the file is damaged"),
])
@pytest.mark.parametrize("how", [["--values", "3 4 5"], ["--forget"]])
def test_teaching_into_a_store_it_cannot_use_refuses_and_leaves_the_kiosks_games_where_they_are(
        photos, taught, capsys, caplog, spoil, said, how):
    caplog.set_level(logging.INFO)
    spoil(taught / "dicetable.sqlite3")
    before = _files(taught)
    args = ["teach", *([str(photos[0])] if how[0] == "--values" else []), *how, "--state", str(taught)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"cannot be used ({said}): the kiosk puts them aside for the staff at its next start" in err
    assert "nothing was changed" in err and "Traceback" not in err
    # Said once, in the command's words: SQLite's is for the kiosk's journal (INFO), and a command,
    # which configures no logging, prints only warnings and worse.
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert _files(taught) == before


def test_teaching_where_the_store_cannot_be_opened_says_so(photos, tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "usb").mkdir()  # a drive's mount point, the drive not mounted
    (state / "dicetable.sqlite3").symlink_to(tmp_path / "usb" / "x.sqlite3")
    assert main(["teach", str(photos[0]), "--values", "3 4 5", "--state", str(state)]) == 2
    err = capsys.readouterr().err
    assert "cannot be opened" in err and "nothing was changed" in err and "Traceback" not in err
    assert not list((tmp_path / "usb").iterdir())


def test_an_empty_state_path_is_refused_not_taken_for_the_current_directory(photos, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["teach", str(photos[0]), "--values", "3 4 5"], ["read", str(photos[0])]):
        with pytest.raises(SystemExit) as exc:
            main([*command, "--state", ""])
        assert exc.value.code == 2
        assert "a directory's path is needed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_teaching_while_the_store_is_locked_says_so_and_changes_nothing(taught, tmp_path, capsys, monkeypatch):
    import sqlite3

    import appliance.store as store_module

    new = _render(tmp_path, [THROWS[0]], 500)[0]
    before = kept(taught)
    real_connect = sqlite3.connect
    monkeypatch.setattr(store_module.sqlite3, "connect", lambda *a, **k: real_connect(*a, **{**k, "timeout": 0.1}))
    holder = real_connect(taught / "dicetable.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the kiosk writing a long commit
    try:
        for args in ([str(new), "--values", "3 4 5"], ["--forget"]):
            assert main(["teach", *args, "--state", str(taught)]) == 2
            err = capsys.readouterr().err
            assert "cannot be written (database is locked); nothing was changed" in err and "Traceback" not in err
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert kept(taught) == before


def test_teaching_past_the_stores_bound_says_how_many_old_throws_made_room(taught, tmp_path, capsys, monkeypatch):
    import appliance.store as store_module

    (throws, crops, _last), _saved = kept(taught)
    monkeypatch.setattr(store_module, "MAX_EXAMPLES", crops)
    new = _render(tmp_path, THROWS[:2], 600)
    capsys.readouterr()
    assert main(["teach", *teach_args(new, THROWS[:2]), "--state", str(taught)]) == 0
    out = capsys.readouterr().out
    (now, _crops, _last), _saved = kept(taught)
    assert f"the oldest {throws + 2 - now} throw" in out and f"made room (at most {crops:,} crops)" in out


def test_teaching_more_than_the_store_keeps_says_which_of_its_own_throws_fit(tmp_path, capsys, monkeypatch):
    import appliance.store as store_module

    new = _render(tmp_path, THROWS[:3], 700)
    states = [tmp_path / "all", tmp_path / "bound"]
    for state in states:
        state.mkdir()
    assert main(["teach", *teach_args(new, THROWS[:3]), "--state", str(states[0])]) == 0
    with Store.open(states[0]) as s:
        _crops, _values, ids, _scores = s.examples()
    monkeypatch.setattr(store_module, "MAX_EXAMPLES", int((ids == ids.max()).sum()))  # room for one throw
    capsys.readouterr()
    assert main(["teach", *teach_args(new, THROWS[:3]), "--state", str(states[1])]) == 0
    out = capsys.readouterr().out
    assert "taught 3 throws" in out and "the table keeps 1 throw " in out and "only the last 1 of these fit" in out
    assert "made room" not in out


def test_a_report_that_cannot_be_written_is_not_told_as_a_store_that_cannot(tmp_path, capsys, monkeypatch):
    import errno
    import io

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    new = _render(tmp_path, THROWS[:2], 800)
    state = tmp_path / "state"
    state.mkdir()
    capsys.readouterr()
    monkeypatch.setattr("sys.stdout", Full())
    assert main(["teach", *teach_args(new, THROWS[:2]), "--state", str(state)]) == 74
    err = capsys.readouterr().err
    assert f"done in {state}, but its report could not be written (No space left on device)" in err
    assert "nothing was changed" not in err and "Traceback" not in err
    assert kept(state)[0][0] == 2


@pytest.mark.parametrize("where, kept_after, said", [
    ("appliance.commands.teach._throws", 0, "interrupted; nothing was changed"),
    ("appliance.store.Store.add_throws", 0, "interrupted; nothing was changed"),
    ("appliance.teaching.fit_kept", 2, "interrupted; the throws above are kept: the table learns from them when it next reads"),
])
def test_ctrl_c_says_whether_the_throws_were_kept(photos, tmp_path, capsys, monkeypatch, where, kept_after, said):
    # Cut off during the fit, after the throws' commit, it exited 130 in silence, then said "nothing
    # was changed" of throws kept; cut off while the photos were read, it said nothing at all.
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setattr(where, interrupted)
    assert main(["teach", *teach_args(photos[:2], THROWS[:2]), "--state", str(state)]) == 130
    out, err = capsys.readouterr()
    assert said in err and "Traceback" not in err and ("taught 2 throws" in out) == bool(kept_after)
    assert kept(state)[0][0] == kept_after


def test_teaching_again_after_a_fit_cut_off_saves_the_fit(photos, taught, capsys):
    # A pulled plug between keeping the throws and saving their fit: every read fitted them again
    # (seconds each) until a new throw was taught; teaching the same photos again now saves it.
    with Store.open(taught) as s:
        s.save_settings({"adaptation": "{}"})
    assert main(["teach", str(photos[0]), "--values", "5 4 3", "--state", str(taught)]) == 0
    assert "nothing new taught" in capsys.readouterr().out
    with Store.open(taught) as s:
        assert json.loads(s.setting("adaptation"))["crops"] == s.count_examples()[1]


def test_a_manifest_photo_whose_dice_the_reader_cannot_find_is_named_and_skipped_and_the_others_teach(
        tmp_path, capsys):
    rows = []
    for k, shift in enumerate((0, 2000)):
        image, truth = render_still(THROWS[0], seed=200 + k, look=None)
        photo = tmp_path / f"throw{k}.png"
        cv2.imwrite(str(photo), image)
        rows.append((photo, [d.value for d in truth], [(x + shift, y, w, h) for x, y, w, h in (d.box for d in truth)]))
    manifest = _manifest(tmp_path, rows)
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", "--manifest", str(manifest), "--state", str(state)]) == 0
    out = capsys.readouterr().out
    assert "throw1.png: the reader finds none of the 3 labelled dice where their boxes are" in out and "skipped" in out
    assert "taught 1 throw" in out
    assert kept(state)[0][0] == 1


def test_values_other_than_the_table_reads_surely_are_taught_and_said(photos, tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", str(photos[0]), "--values", "3 4 4", "--state", str(state)]) == 0  # read as 3 4 5
    out = capsys.readouterr().out
    assert f"{photos[0]}: the table reads 3 4 5 there, taught as 3 4 4 (a typo?" in out
    assert main(["teach", str(photos[1]), "--values", "1 1 6", "--state", str(state)]) == 0
    assert "the table reads" not in capsys.readouterr().out  # as read: nothing to say


def test_a_manifest_row_naming_a_folder_is_named_with_its_manifest_and_nothing_is_taught(photos, taught, tmp_path, capsys):
    folder = tmp_path / "rows"
    (folder / "throw200.png").mkdir(parents=True)  # the row's photo is a folder of that name
    manifest = _manifest(folder, [(photos[0], THROWS[0], [(10, 10, 30, 30), (60, 60, 30, 30), (110, 110, 30, 30)])])
    before = kept(taught)
    assert main(["teach", "--manifest", str(manifest), "--state", str(taught)]) == 2
    err = capsys.readouterr().err
    assert f"{folder / 'throw200.png'}, a photo of {manifest}: is a directory, not an image" in err
    assert "--manifest for labelled photos" not in err and kept(taught) == before


def test_a_folder_in_place_of_the_store_is_said_as_such_by_teach_forget_and_read(photos, tmp_path, capsys):
    state = tmp_path / "state"
    (state / "dicetable.sqlite3").mkdir(parents=True)
    for args in ([str(photos[0]), "--values", "3 4 5"], ["--forget"]):
        assert main(["teach", *args, "--state", str(state)]) == 2
        err = capsys.readouterr().err
        assert "cannot be used (it is a folder, not a file)" in err and "nothing was changed" in err
    assert main(["read", str(photos[0]), "--dice", "3", "--state", str(state)]) == 0
    assert "a folder, not the store's file; the shipped model reads" in capsys.readouterr().err
    # Beside the folder, only the lock teach held (the kiosk's own, as a kiosk leaves it).
    assert sorted(p.name for p in state.iterdir()) == ["dicetable.sqlite3", "kiosk.lock"]
    assert (state / "dicetable.sqlite3").is_dir()


def test_teach_says_the_adaptation_in_force_when_another_teach_changed_the_store_meanwhile(
        photos, taught, tmp_path, capsys, monkeypatch):
    from vision.examples import from_values
    from vision.reader import _models

    other = [from_values(cv2.imread(str(p)), list(v), _models()) for p, v in zip(_render(tmp_path, THROWS[:2], 700), THROWS[:2])]
    real_add = Store.add_throws
    others = []

    def add_then_another(store, *args, **kwargs):
        real_add(store, *args, **kwargs)
        if not others:  # another teach, its throws kept and fitted after ours were kept
            others.append(store)
            with Store.open(taught) as second:
                second.add_throws(other, "teach")
                second.save_settings({"adaptation": json.dumps({"reason": "fitted elsewhere"})})

    monkeypatch.setattr(Store, "add_throws", add_then_another)
    new = _render(tmp_path, [THROWS[0]], 800)
    assert main(["teach", *teach_args(new, [THROWS[0]]), "--state", str(taught)]) == 0
    said = capsys.readouterr().out.splitlines()[-1]
    with Store.open(taught) as s:
        saved = json.loads(s.setting("adaptation"))
        # The other teach's saved decision was not of everything kept: fitted again, saved, and said.
        assert saved["crops"] == s.count_examples()[1] and said.endswith(saved["reason"])


def test_a_photo_given_twice_with_values_the_table_reads_otherwise_is_said_once(photos, tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    args = teach_args([photos[0], photos[0]], [(1, 1, 1), (1, 1, 1)])
    assert main(["teach", *args, "--state", str(state)]) == 0
    out = capsys.readouterr().out
    assert out.count("the table reads") == 1 and f"the same throw as {photos[0]} above" in out


def test_a_reader_of_its_output_that_stops_early_does_not_make_a_kept_throw_look_refused(
        taught, tmp_path, capsys, monkeypatch):
    # `dicetable teach ... | head -1`: the throw is kept; the closed pipe is the reader's, not the
    # store's, and is not said as "nothing was changed".
    import builtins

    new = _render(tmp_path, [THROWS[0]], 520)[0]
    (throws, _crops, _last), _saved = kept(taught)
    printed = []

    def closing_after_one_line(*args, **kwargs):
        if kwargs.get("file") is None and printed:
            raise BrokenPipeError(32, "Broken pipe")
        printed.append(args)

    monkeypatch.setattr(builtins, "print", closing_after_one_line)
    code = main(["teach", str(new), "--values", "3 4 5", "--state", str(taught)])
    monkeypatch.undo()
    assert code == 0 and "nothing was changed" not in capsys.readouterr().err
    assert kept(taught)[0][0] == throws + 1


def test_teaching_where_the_kiosks_lock_cannot_be_opened_is_refused_and_changes_nothing(photos, taught, capsys):
    # Unguarded, a teach could write beside a kiosk playing there.
    before = kept(taught)
    (taught / "kiosk.lock").unlink()
    (taught / "kiosk.lock").mkdir()
    assert main(["teach", *teach_args(photos[:1], THROWS[:1]), "--state", str(taught)]) == 2
    assert "kiosk.lock cannot be opened" in capsys.readouterr().err
    (taught / "kiosk.lock").rmdir()
    assert kept(taught) == before


def test_a_manifest_row_the_table_reads_surely_otherwise_is_taught_and_said(tmp_path, capsys):
    image, truth = render_still(THROWS[0], seed=200, look=None)
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), image)
    wrong = [1] * len(truth)  # a row whose values were all typed as 1
    manifest = _manifest(tmp_path, [(photo, wrong, [d.box for d in truth])])
    state = tmp_path / "state"
    state.mkdir()
    assert main(["teach", "--manifest", str(manifest), "--state", str(state)]) == 0
    out = capsys.readouterr().out
    read = " ".join(map(str, sorted(d.value for d in truth)))
    assert f"throw.png: the table reads {read} there, taught as 1 1 1 (a typo? mend the manifest's row" in out
