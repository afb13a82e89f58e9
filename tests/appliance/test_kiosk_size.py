"""A size the kiosk's landscape layouts cannot serve (portrait, or narrower than 3:2) is refused in one
clear line naming where it came from: the config key, the demo's --size, the screen's own mode."""

from __future__ import annotations

import pytest

from appliance import config
from appliance.cli import main
from appliance.kiosk.app import App


@pytest.mark.parametrize("size, ok", [([480, 800], False), ([480, 480], False), ([1280, 1024], False),
                                      ([1024, 768], False), ([719, 480], False), ([720, 480], True),
                                      ([800, 480], True), ([1280, 800], True), ([1920, 1080], True)])
def test_a_display_size_narrower_than_landscape_3_to_2_is_refused_naming_the_key(tmp_path, size, ok):
    path = tmp_path / "config.toml"
    path.write_text(f"[display]\nsize = {size}\n", encoding="utf-8")
    if ok:
        assert config.load(path).display.size == tuple(size)
        return
    with pytest.raises(config.ConfigError) as err:
        config.load(path)
    assert err.value.key == "display.size"
    assert "landscape" in str(err.value) and f"{size[0]}x{size[1]}" in str(err.value)


def test_the_demo_refuses_a_portrait_size_in_one_line_before_anything_runs(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--headless", "--size", "480x800", "--games", "maexle"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--size" in err and "landscape" in err and "480x800" in err and "Traceback" not in err


def test_a_portrait_screen_of_its_own_size_is_refused_with_what_to_do():
    """display.size = "native" on a screen mounted portrait: no screens of "…", a clear refusal."""
    from appliance.inputs import CommandQueue
    from appliance.kiosk import loop

    with pytest.raises(ValueError, match="landscape.*480x800.*display.size"):
        loop.Kiosk(App(clock=lambda: 0.0), CommandQueue(), size=(480, 800))
