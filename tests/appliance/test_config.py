"""The config file: defaults, the documented example, and one clear message naming the key at fault."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from appliance import config
from appliance.config import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def every_key() -> list[str]:
    """Every dotted key the schema knows (sections' keys, top-level keys, rule switches)."""
    keys = [f.name for f in fields(config.Config) if "check" in f.metadata and f.name != "rules"]
    for name, cls in config.SECTIONS.items():
        keys += [f"{name}.{f.name}" for f in fields(cls)]
    keys += [f"gpio.buttons.{b}" for b in config.EXTRA_BUTTONS]
    for game, switches in config.RULE_SWITCHES.items():
        keys += [f"rules.{game}.{s}" for s in switches]
    return keys


def test_the_example_file_documents_every_key_with_a_comment():
    text = config.EXAMPLE_PATH.read_text(encoding="utf-8")
    section = ""
    documented = set()
    for line in text.splitlines():
        if m := re.match(r"^\[([\w.]+)\]", line):
            section = m.group(1) + "."
            documented.add(m.group(1))  # a table such as [gpio.buttons] is a key too
        elif m := re.match(r"^#?\s*(\w+)\s*=", line):
            documented.add(section + m.group(1))
    # the extra buttons are documented by name in the comment above [gpio.buttons]
    documented |= {f"gpio.buttons.{b}" for b in config.EXTRA_BUTTONS if b in text}
    missing = [k for k in every_key() if k not in documented]
    assert not missing, f"keys not in {config.EXAMPLE_PATH.name}: {missing}"


def test_the_example_file_loads_and_states_the_built_in_defaults():
    cfg = config.load(config.EXAMPLE_PATH)
    defaults = config.defaults()
    for name in ("language", "drink_word", *config.SECTIONS):
        assert getattr(cfg, name) == getattr(defaults, name), name
    assert cfg.path == config.EXAMPLE_PATH


def test_the_example_file_states_the_engines_rule_defaults():
    from appliance.games import new_game

    cfg = config.load(config.EXAMPLE_PATH)
    players = {"maexle": ["A", "B"], "biscuit": ["A", "B", "C"], "yacht": ["A", "B"]}
    for game, rules in cfg.rules.items():
        assert set(rules) == set(config.RULE_SWITCHES[game]), game
        example = new_game({"game": game, "players": players[game], "rules": rules}).setup["rules"]
        default = new_game({"game": game, "players": players[game], "rules": {}}).setup["rules"]
        assert example == default, game


def test_a_missing_default_file_means_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "absent.toml")
    monkeypatch.delenv("DICETABLE_CONFIG", raising=False)
    cfg = config.load()
    assert cfg == config.defaults()
    assert cfg.path is None and cfg.gpio.reveal_pin == 17 and cfg.camera.source == "picamera"


def test_a_missing_file_named_explicitly_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="file not found") as err:
        config.load(tmp_path / "nope.toml")
    assert str(tmp_path / "nope.toml") in str(err.value)


def test_dicetable_config_variable_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETABLE_CONFIG", str(write(tmp_path, 'language = "lv"\n')))
    assert config.load().language == "lv"


def test_a_full_file_is_read_into_typed_values(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    cfg = config.load(write(tmp_path, f"""
language = "de"
drink_word = "Schluck"
state_dir = "{tmp_path}/state"
[camera]
source = "{folder}"
size = [640, 480]
fps = 30
exposure = 8000
[tray]
area = [10, 20, 600, 440]
[gpio]
reveal_pin = 5
reveal_led_pin = 6
long_press_s = 2
buttons = {{ undo = 27, accept = 22 }}
[display]
size = [800, 480]
fullscreen = false
driver = "dummy"
[sound]
volume = 0
voice = false
[coach]
yacht_hint = true
[rules.maexle]
limit = "none"
self_reveal = false
truth = "exact"
[rules.yacht]
scoring = "sackson"
"""))
    assert cfg.language == "de" and cfg.drink_word == "Schluck"
    assert cfg.state_dir == tmp_path / "state"
    assert cfg.camera.source == folder and cfg.camera.size == (640, 480) and cfg.camera.exposure == 8000
    assert cfg.tray.area == (10, 20, 600, 440)
    assert cfg.gpio.reveal_led_pin == 6 and cfg.gpio.long_press_s == 2.0
    assert cfg.gpio.buttons == {"undo": 27, "accept": 22}
    assert cfg.display.size == (800, 480) and cfg.display.fullscreen is False
    assert cfg.sound.volume == 0.0 and cfg.coach.yacht_hint and not cfg.coach.maexle_odds
    assert cfg.rules == {"maexle": {"limit": None, "self_reveal": False, "truth": "exact"},
                         "biscuit": {}, "yacht": {"scoring": "sackson"}}


@pytest.mark.parametrize("source, expected", [(0, 0), (2, 2), ('"synthetic"', "synthetic"), ('"picamera"', "picamera")])
def test_camera_sources(tmp_path, source, expected):
    assert config.load(write(tmp_path, f"[camera]\nsource = {source}\n")).camera.source == expected


def test_state_directory_comes_from_systemd_when_the_file_does_not_set_it(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/dicetable:/var/lib/other")
    assert config.load(write(tmp_path, "")).state_dir == Path("/var/lib/dicetable")
    assert config.load(write(tmp_path, 'state_dir = "/srv/dt"\n')).state_dir == Path("/srv/dt")


BAD = [
    # (file text, the key the message must name, a word of the problem)
    ('colour = "red"', "colour", "unknown key"),
    ("[screen]\nsize = [1, 2]", "screen", "unknown section"),
    ("[camera]\nzoom = 2", "camera.zoom", "unknown key"),
    ('[camera]\nfps = "fast"', "camera.fps", "whole number"),
    ("[camera]\nfps = 0", "camera.fps", "1-120"),
    ("[camera]\nfps = 15.5", "camera.fps", "whole number"),
    ("[camera]\nsource = -1", "camera.source", "0-63"),
    ('[camera]\nsource = "webcam.mp4"', "camera.source", "absolute path"),
    ('[camera]\nsource = "/no/such/video.mp4"', "camera.source", "no such"),
    ("[camera]\nsource = true", "camera.source", "device number"),
    ("[camera]\nsize = [1280]", "camera.size", "[width, height]"),
    ("[camera]\nsize = [0, 720]", "camera.size", "16-8192"),
    ("[camera]\nexposure = 5", "camera.exposure", "µs"),
    ("[tray]\narea = [0, 0, 10, 10]", "tray.area", ">= 16"),
    ('[tray]\narea = "half"', "tray.area", "full"),
    ("[camera]\nsize = [640, 480]\n[tray]\narea = [700, 0, 100, 100]", "tray.area", "640x480 camera frame"),
    ("[tray]\narea = [1200, 600, 100, 100]", "tray.area", "1280x720 camera frame"),
    ("[gpio]\nreveal_pin = 40", "gpio.reveal_pin", "2-27"),
    ('[gpio]\nreveal_pin = "GPIO17"', "gpio.reveal_pin", "BCM"),
    ("[gpio]\nreveal_pin = 17\nreveal_led_pin = 17", "gpio.reveal_led_pin", "already used by gpio.reveal_pin"),
    ("[gpio.buttons]\nundo = 27\naccept = 27", "gpio.buttons.accept", "already used by gpio.buttons.undo"),
    ("[gpio.buttons]\nfire = 27", "gpio.buttons.fire", "unknown button"),
    ("[gpio]\nlong_press_s = 0", "gpio.long_press_s", "0.3-10.0 s"),
    ("[gpio]\nbuttons = 3", "gpio.buttons", "table"),
    ('[display]\ndriver = "fbcon"', "display.driver", "kmsdrm"),
    ('[display]\nfullscreen = "yes"', "display.fullscreen", "true or false"),
    ("[sound]\nvolume = 1.5", "sound.volume", "0.0-1.0"),
    ('language = "fr"', "language", "en, de, lv, ru"),
    ('drink_word = ""', "drink_word", "non-empty"),
    ('drink_word = "a\\nb"', "drink_word", "one line of printable characters"),
    ('state_dir = "state"', "state_dir", "absolute"),
    ('state_dir = "/var/lib/dice\\u0000table"', "state_dir", "NUL"),
    ('[camera]\nsource = "/dev/null\\u0000x"', "camera.source", "NUL"),
    ('[camera]\nsource = "/dev/null"', "camera.source", "a camera is given by its number, not its device path"),
    ('[camera]\nsource = "/dev/video7"', "camera.source", "a camera is given by its number (7 for /dev/video7)"),
    ("camera = 3", "camera", "section"),
    ("[rules.poker]\nante = 1", "rules.poker", "unknown game"),
    ("[rules.maexle]\nlimt = 6", "rules.maexle.limt", "unknown switch"),
    ("[rules.maexle]\nmaexle_reveal_cost = 0", "rules.maexle.maexle_reveal_cost", ">= 1"),
    ('[rules.maexle]\nlimit = "6"', "rules.maexle.limit", "none"),
    ("[rules.maexle]\nlimit = 0", "rules.maexle.limit", "none"),
    ("[rules.maexle]\nlimit = 100", "rules.maexle.limit", "at most 99"),
    ("[rules.maexle]\nmaexle_accept_cost = 10000000000000", "rules.maexle.maexle_accept_cost", "at most 99"),
    ('[rules.maexle]\ntruth = "roughly"', "rules.maexle.truth", "at_least, exact"),
    ('[rules.maexle]\nself_reveal = "yes"', "rules.maexle.self_reveal", "on/off"),
    ('[rules.biscuit]\nroller = "anyone"', "rules.biscuit.roller", "biscuit, rotate"),
    ('[rules.yacht]\nscoring = 2', "rules.yacht.scoring", "seed, sackson"),
]


@pytest.mark.parametrize("text, problem", [("[sound]\nvolume = nan", "sound.volume: must be 0.0-1.0, got nan"),
                                           ("[sound]\nvolume = inf", "sound.volume: must be 0.0-1.0, got inf"),
                                           ("[gpio]\nlong_press_s = nan", "gpio.long_press_s: must be 0.3-10.0 s, got nan")])
def test_a_number_out_of_range_or_not_a_number_is_named_with_its_range_and_unit(tmp_path, text, problem):
    """TOML has nan and inf; they are refused like any value out of range, worded cleanly."""
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, text + "\n"))
    assert problem in str(err.value)


@pytest.mark.parametrize("text, key, problem", BAD, ids=[b[1] for b in BAD])
def test_a_bad_value_gives_one_line_naming_the_file_and_the_key(tmp_path, text, key, problem):
    path = write(tmp_path, text + "\n")
    with pytest.raises(ConfigError) as err:
        config.load(path)
    message = str(err.value)
    assert err.value.key == key
    assert f"{path}: {key}: " in message
    assert problem in message
    assert "\n" not in message


def test_a_tray_area_is_not_checked_against_the_camera_size_for_a_video_or_folder(tmp_path):
    """A video file or image folder has the frame size it was recorded at, not camera.size."""
    (tmp_path / "frames").mkdir()
    cfg = config.load(write(tmp_path, f'[camera]\nsource = "{tmp_path / "frames"}"\n[tray]\narea = [1500, 0, 100, 100]\n'))
    assert cfg.tray.area == (1500, 0, 100, 100)


def test_toml_syntax_and_encoding_errors_name_the_file(tmp_path):
    path = write(tmp_path, "[camera\nfps = 1\n")
    with pytest.raises(ConfigError, match="TOML syntax error") as err:
        config.load(path)
    assert str(path) in str(err.value) and err.value.key == ""
    path.write_bytes(b"language = \"\xff\"\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        config.load(path)


def test_a_file_saved_with_a_byte_order_mark_reads_as_without_one(tmp_path):
    # Windows Notepad starts UTF-8 files with one; tomllib alone calls it "Invalid statement".
    path = tmp_path / "config.toml"
    path.write_bytes("\ufefflanguage = \"de\"\n".encode("utf-8"))
    assert config.load(path).language == "de"


@pytest.mark.parametrize("text, shown", [("[drinks]\ncap = true", "got true (a true/false value)"),
                                         ('[camera]\nsource = ["a"]', 'got ["a"]'),
                                         ('[display]\nfullscreen = "yes"', 'got "yes"')])
def test_a_bad_value_is_shown_as_the_file_writes_it(tmp_path, text, shown):
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, text + "\n"))
    assert shown in str(err.value) and "True" not in str(err.value) and "'" not in str(err.value)


def test_an_unknown_key_lists_the_keys_in_the_same_order_every_time(tmp_path):
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, 'langage = "de"\n'))
    assert "the keys are drink_word, language, state_dir and" in str(err.value)


def test_config_error_is_a_value_error_and_the_exit_status_is_ex_config():
    assert issubclass(ConfigError, ValueError)
    assert config.EXIT_BAD_CONFIG == 78


def test_the_example_parses_as_plain_toml():
    # The installer copies it as the starting config: it must be valid TOML on its own.
    assert tomllib.loads(config.EXAMPLE_PATH.read_text(encoding="utf-8"))["camera"]["source"] == "picamera"


def test_the_drink_cap_is_off_by_default_and_read_from_drinks_cap(tmp_path):
    path = tmp_path / "config.toml"
    assert config.defaults().drinks.cap == 0
    path.write_text("[drinks]\ncap = 5\n")
    assert config.load(path).drinks.cap == 5
    path.write_text("[drinks]\ncap = -1\n")
    with pytest.raises(config.ConfigError) as err:
        config.load(path)
    assert err.value.key == "drinks.cap"


def test_a_photo_folder_not_there_yet_is_a_camera_not_yet_plugged_in_but_one_photo_is_no_camera(tmp_path):
    """A USB stick mounted after boot: its folder appears later, and the kiosk waits for it (the
    config check stopped the service for good with 78). A single photo shows once, then nothing."""
    stick = tmp_path / "media" / "THROWS"
    assert config.load(write(tmp_path, f'[camera]\nsource = "{stick}"\n')).camera.source == stick
    photo = tmp_path / "throw.jpg"
    photo.write_bytes(b"\xff\xd8 not read")
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, f'[camera]\nsource = "{photo}"\n'))
    assert "is one photo: a camera source of photos is the folder that holds them" in str(err.value)
    pipe = tmp_path / "frames"
    os.mkfifo(pipe)
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, f'[camera]\nsource = "{pipe}"\n'))
    assert f"{pipe} is not a video file nor an image folder" in str(err.value)
