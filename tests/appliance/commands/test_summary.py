"""dicetable summary --state DIR [--png FILE]: the evening's figures as text lines and the kiosk's
chart as an image, drawn headless; no games, a damaged store or a bad image name are one clear line
on standard error and exit status 1, never a traceback."""

from __future__ import annotations

import pygame
import pytest

from appliance.cli import main
from appliance.games import new_game
from appliance.store import Store


def evening(state) -> None:
    with Store.open(state) as store:
        game = new_game({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]})
        gid = store.start_game(game.setup)
        for roll in ([3, 4], [6, 6]):
            store.record(gid, {"roll": roll}, game.apply({"roll": roll}))
        store.end_game(gid, {"Ann": {"drinks": 2, "penalties": 0}, "Bo": {"drinks": 1, "penalties": 0},
                             "Cy": {"drinks": 0, "penalties": 0}})


def test_the_summary_prints_each_players_evening_in_words_and_draws_the_chart(tmp_path, capsys):
    evening(tmp_path)
    png = tmp_path / "evening.png"
    assert main(["summary", "--state", str(tmp_path), "--png", str(png), "--size", "800x480"]) == 0
    out = capsys.readouterr().out
    assert "1 game this evening" in out and "Ann: 2 drinks" in out and "Bo: 1 drink\n" in out
    assert "Rarest throw: Ann in game 1 (Biscuit), 1 in 36: 6 6" in out  # a 7 makes Ann the Biscuit, who throws on
    assert pygame.image.load(str(png)).get_size() == (800, 480)


@pytest.mark.parametrize("lang, said", [("ru", "Ann: выпито 2"), ("lv", "Ann: izdzerts 2"), ("de", "Ann: 2 getrunken")])
def test_the_summary_speaks_the_kiosks_languages(tmp_path, capsys, lang, said):
    from appliance import i18n

    evening(tmp_path)
    try:
        assert main(["summary", "--state", str(tmp_path), "--lang", lang]) == 0
    finally:
        i18n.set_language("en")
    assert said in capsys.readouterr().out


def test_a_store_with_no_ended_game_says_so_and_exits_1(tmp_path, capsys):
    Store.open(tmp_path).close()
    assert main(["summary", "--state", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no game has ended this evening yet" in err and "Traceback" not in err


@pytest.mark.parametrize("content, said", [(b"not a database at all" * 100, "no database at all"),
                                           (None, "no saved games there")])
def test_a_damaged_or_missing_store_is_a_clear_error_and_changes_nothing(tmp_path, capsys, content, said):
    if content is not None:
        (tmp_path / "dicetable.sqlite3").write_bytes(content)
    assert main(["summary", "--state", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    if content is not None:
        assert (tmp_path / "dicetable.sqlite3").read_bytes() == content


def test_a_game_log_given_as_the_state_is_pointed_to_replay(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text('{"game": "maexle", "players": ["Ann", "Bo"]}\n')
    assert main(["summary", "--state", str(log)]) == 1
    err = capsys.readouterr().err
    assert "not a Dice Table store (no database at all); a game log is read with dicetable replay" in err


def test_a_state_directory_that_does_not_exist_is_said_as_a_mistyped_path(tmp_path, capsys):
    assert main(["summary", "--state", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'nope'} does not exist (a mistyped path?" in err and err.count("\n") == 1
    assert not (tmp_path / "nope").exists()


def test_an_image_that_is_not_png_is_refused(tmp_path, capsys):
    evening(tmp_path)
    assert main(["summary", "--state", str(tmp_path), "--png", str(tmp_path / "x.jpg")]) == 1
    assert "must be a .png file" in capsys.readouterr().err


def test_a_folder_given_as_the_image_is_named_as_a_folder(tmp_path, capsys):
    evening(tmp_path)
    (tmp_path / "charts.png").mkdir()
    for folder in (tmp_path, tmp_path / "charts.png"):
        assert main(["summary", "--state", str(tmp_path), "--png", str(folder)]) == 1
        assert "that is a folder; name the image in it" in capsys.readouterr().err


def test_a_chart_narrower_than_3_2_is_drawn_in_a_3_2_band_across_it_as_the_kiosk_draws(tmp_path, capsys):
    # Drawn over the whole of 480x800 it listed one player of three, and 320x4320 was a giant die.
    from appliance.kiosk import theme as th

    evening(tmp_path)
    for size in ((480, 800), (320, 4320)):
        png = tmp_path / "tall.png"
        assert main(["summary", "--state", str(tmp_path), "--png", str(png), "--size", "{}x{}".format(*size)]) == 0
        image = pygame.image.load(str(png))
        _x, top, _w, band = th.layout_area(*size)
        assert image.get_size() == size and band == size[0] * 2 // 3
        rows = pygame.surfarray.array3d(image).transpose(1, 0, 2)
        assert (rows[:top] == th.BACKGROUND).all() and (rows[top + band:] == th.BACKGROUND).all()
        assert (rows[top:top + band] != th.BACKGROUND).any()


def test_a_chart_into_a_folder_that_does_not_exist_is_one_clear_line(tmp_path, capsys):
    evening(tmp_path)
    assert main(["summary", "--state", str(tmp_path), "--png", str(tmp_path / "nodir" / "a.png")]) == 1
    err = capsys.readouterr().err
    assert f"no folder {tmp_path / 'nodir'}" in err and err.count("\n") == 1


def test_the_summary_prints_no_greeting_of_pygame_on_its_output(tmp_path):
    """Scripts read the summary's lines: pygame's "Hello from the pygame community" was two of them."""
    import os
    import subprocess
    import sys

    evening(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    done = subprocess.run([sys.executable, "-m", "appliance", "summary", "--state", str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("1 game this evening\n"), done.stdout
    assert "pygame" not in done.stdout + done.stderr
