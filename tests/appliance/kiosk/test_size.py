"""Any screen works: one narrower than the layouts' landscape 3:2 (a 5:4 or 4:3 monitor, a display
mounted portrait) shows the screens whole in a 3:2 band across its width, and taps land where drawn."""

from __future__ import annotations

import pygame
import pytest

from appliance import config
from appliance.inputs import Command, CommandQueue
from appliance.kiosk import theme as th
from appliance.kiosk.app import App


@pytest.mark.parametrize("size, area", [((800, 480), (0, 0, 800, 480)), ((1920, 1080), (0, 0, 1920, 1080)),
                                        ((720, 480), (0, 0, 720, 480)), ((1280, 1024), (0, 85, 1280, 853)),
                                        ((1024, 768), (0, 43, 1024, 682)), ((480, 800), (0, 240, 480, 320))])
def test_a_screen_narrower_than_3_to_2_lends_the_kiosk_a_centred_band_of_it(size, area):
    assert th.layout_area(*size) == area


@pytest.mark.parametrize("size", [[480, 800], [1280, 1024], [1024, 768], [800, 480]])
def test_any_display_size_in_range_is_accepted(tmp_path, size):
    path = tmp_path / "config.toml"
    path.write_text(f"[display]\nsize = {size}\n", encoding="utf-8")
    assert config.load(path).display.size == tuple(size)


def test_on_a_portrait_screen_the_setup_is_drawn_in_its_band_and_a_tap_there_chooses(tmp_path):
    from appliance.kiosk import loop

    commands = CommandQueue()
    kiosk = loop.Kiosk(App(clock=lambda: 0.0), commands, size=(480, 800))
    try:
        kiosk.step()
        band = pygame.Rect(th.layout_area(480, 800))
        assert kiosk.hits and all(band.contains(rect) for rect, _cid in kiosk.hits)
        shot = pygame.image.load(str(kiosk.screenshot(tmp_path / "portrait.png")))
        assert shot.get_at((240, 10))[:3] == (0, 0, 0) and shot.get_at((240, 790))[:3] == (0, 0, 0)
        assert shot.get_at((240, 400))[:3] != (0, 0, 0)
        yacht = next(rect for rect, cid in kiosk.hits if cid == "game:yacht")
        assert kiosk.app.setup.game_kind != "yacht"
        commands.put(Command("tap", yacht.center, source="touch"))
        kiosk.step()
        assert kiosk.app.setup.game_kind == "yacht"
    finally:
        kiosk.close()
