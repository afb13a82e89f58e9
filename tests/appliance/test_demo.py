"""dicetable demo headless: a whole evening through the real reader, session, engine and kiosk, with a
screenshot per screen; and the same with real photos as the throws."""

from __future__ import annotations

import csv
import re
import shutil

import pygame

from appliance.cli import main


def pngs_are_screens(folder) -> list[str]:
    names = sorted(p.name for p in folder.glob("*.png"))
    for name in names:
        pixels = pygame.surfarray.array3d(pygame.image.load(str(folder / name)))
        assert pixels.shape[:2] == (800, 480) and pixels.std() > 20, name
    return names


def test_the_headless_demo_plays_all_three_games_and_saves_every_screen(tmp_path, capsys):
    assert main(["demo", "--headless", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for game in ("== Mäxle ==", "== Biscuit ==", "== Yacht =="):
        assert game in out
    assert "table: " in out and "camera: read" in out and out.count("wins!") >= 2
    assert f"screenshots in {tmp_path}" in out
    # The Yacht players' one reroll a turn is said once; no turn rerolls twice; each hand entry is
    # said once.
    assert out.count("reroll at most once a turn") == 1
    yacht = out.split("== Yacht ==")[1].splitlines()
    rerolls = []
    for line in yacht:
        if " declares " in line and line.startswith("table: "):
            rerolls.append(0)
        elif " keeps " in line and line.startswith("table: "):
            rerolls[-1] += 1
    assert len(rerolls) == 24 and max(rerolls) == 1
    lines = out.splitlines()
    assert not any(a.startswith("table: enters") and b.startswith("table: enters") for a, b in zip(lines, lines[1:]))
    # The closing counts add up: every roll the engine took is a throw the camera read (right,
    # misread or unchecked; not an unreadable one), a roll read again after Fix dice, or a hand entry.
    throws = re.search(r"(\d+) throws read by the camera: (\d+) right, (\d+) misread .*?(\d+) unreadable .*?"
                       r"(\d+) not checkable", out)
    rolls = re.search(r"rolls the engine took: (\d+) from the camera \((\d+) of the throws above, .*?(\d+) read "
                      r"again after Fix dice\), (\d+) entered by hand", out)
    assert throws and rolls, out.splitlines()[-5:]
    total, right, misread, unreadable, unchecked = map(int, throws.groups())
    camera, taken, again, hand = map(int, rolls.groups())
    assert total == right + misread + unreadable + unchecked and right > 30
    assert camera == taken + again and taken == right + misread + unchecked and again == 1
    assert hand == out.count("table: enters the dice by hand")
    names = pngs_are_screens(tmp_path)
    for screen in ("setup", "names", "play-maexle-announce", "play-maexle-decide", "play-maexle-lift",
                   "play-biscuit-pick", "play-biscuit-thumbs", "play-yacht-declare", "play-yacht-reroll", "correct",
                   "hand", "sheet", "menu", "over-yacht"):
        assert any(re.fullmatch(rf"\d\d-{screen}(-announcement)?\.png", n) for n in names), screen


def test_the_demo_throws_real_photos_from_a_folder(tmp_path, capsys, photos_dir):
    """A small folder of table-like 2-dice photos with their manifest: Mäxle plays through them."""
    with (photos_dir / "manifest.csv").open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["n_dice"] == "2" and r["table_like"] == "1" and r["excluded"] == "0"]
    rows = [r for r in rows if r["source"] == "matteop65"][:12]
    folder = tmp_path / "photos"
    for r in rows:
        (folder / r["file"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(photos_dir / r["file"], folder / r["file"])
    with (folder / "manifest.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    shots = tmp_path / "shots"
    assert main(["demo", "--headless", "--source", str(folder), "--games", "maexle", "--out", str(shots)]) == 0
    out = capsys.readouterr().out
    assert "real photos from" in out and "== Mäxle ==" in out and "wins!" in out
    assert "camera: " in out
    assert pngs_are_screens(shots)


def test_a_source_folder_without_photos_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", "--headless", "--source", str(tmp_path), "--out", str(tmp_path / "o")]) == 1
    assert "needs photos" in capsys.readouterr().err


def test_an_unknown_game_is_a_clear_error_and_exit_2_as_for_any_bad_argument(tmp_path, capsys):
    assert main(["demo", "--headless", "--games", "poker", "--out", str(tmp_path)]) == 2
    assert "poker" in capsys.readouterr().err


def test_no_game_named_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", "--headless", "--games", "", "--out", str(tmp_path)]) == 2
    assert "name at least one game: maexle, biscuit or yacht" in capsys.readouterr().err


def test_an_out_folder_that_cannot_be_made_is_a_clear_error_and_plays_nothing(tmp_path, capsys):
    a_file = tmp_path / "shots.png"
    a_file.write_text("not a folder")
    assert main(["demo", "--headless", "--games", "maexle", "--out", str(a_file)]) == 1
    captured = capsys.readouterr()
    assert f"cannot save the screenshots in {a_file}: it is a file, not a folder" in captured.err
    assert "Traceback" not in captured.err
    assert "==" not in captured.out and a_file.read_text() == "not a folder"


def test_an_out_folder_that_cannot_be_written_is_a_clear_error_not_a_traceback(tmp_path, capsys, monkeypatch):
    import pygame

    def refused(_surface, name):
        raise pygame.error(f"Couldn't open {name}")  # a read-only mount; a full disk: "Error writing the PNG file"

    monkeypatch.setattr(pygame.image, "save", refused)
    assert main(["demo", "--headless", "--games", "maexle", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"dicetable demo: cannot save the screenshots in {tmp_path}: Couldn't open {tmp_path}/01-setup.png" in err
    assert "Traceback" not in err


def test_the_transcript_in_russian_says_the_house_rules_and_the_roll_sources_in_words(tmp_path, capsys):
    assert main(["demo", "--headless", "--lang", "ru", "--games", "maexle", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "(домашние правила limit = 3)" in out and "{'" not in out
    assert re.search(r"броски, принятые движком: \d+ от камеры", out) and "camera" not in out.splitlines()[-3]


def test_the_demo_plays_a_photo_folder_without_a_manifest(tmp_path, capsys, photos_dir):
    """No labels: only the photos the reader reads are thrown, so no roll is left that nobody can
    enter; the evening ends with status 0 (DESIGN.md)."""
    folder = photos_dir / "nell-byler"
    assert not (folder / "manifest.csv").exists()
    assert main(["demo", "--headless", "--source", str(folder), "--games", "yacht", "--lang", "en",
                 "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "not checkable (no labels)" in out and "has no labels to enter" not in out


def test_photos_without_a_manifest_keep_only_those_the_reader_reads(tmp_path, monkeypatch):
    import cv2
    import numpy as np

    from vision import reader
    from vision.reading import DiceReading, Die, unreadable
    from vision.sources import photo_pools

    for name in ("a.png", "b.png"):
        cv2.imwrite(str(tmp_path / name), np.full((40, 40, 3), 90, np.uint8))
    two = (Die(3, (5.0, 5.0), (1, 1, 8, 8)), Die(4, (20.0, 5.0), (16, 1, 8, 8)))
    readings = iter([DiceReading("ok", two), unreadable("a die is unclear", two, "unsure")])
    monkeypatch.setattr(reader, "read_dice", lambda img, **kw: next(readings))
    pools = photo_pools(tmp_path, 0)
    assert [p.path.name for p in pools[2]] == ["a.png"]


def test_the_demo_window_fits_a_1024x768_display():
    from appliance.demo import WINDOW, fit_window

    w, h = fit_window(WINDOW, (1024, 768))
    assert w <= 1024 and h <= 768 and abs(w / h - 16 / 9) < 0.01
    assert fit_window(WINDOW, (1920, 1080)) == WINDOW and fit_window(WINDOW, None) == WINDOW


def test_the_demo_window_without_a_size_opens_fitted_to_the_display(monkeypatch):
    from appliance import demo

    monkeypatch.setattr(demo, "display_size", lambda: (1024, 768))
    seen = []
    assert demo.play_window(None, seed=1, max_frames=1, steps=lambda k: seen.append(k.screen.get_size())) == 0
    assert seen == [demo.fit_window(demo.WINDOW, (1024, 768))]
