"""The tray area check: a die whose centre lies outside the tray area makes the reading off_tray."""

from vision.reading import DiceReading, Die, unreadable, wrong_count
from vision.tray import inside, off_tray

AREA = (40, 30, 560, 420)
IN = Die(3, (300.0, 200.0), (280, 180, 40, 40))
OUT = Die(5, (612.0, 40.0), (592, 20, 40, 40))


def test_a_reading_with_every_die_inside_the_tray_area_or_without_an_area_is_kept_as_it_is():
    ok = DiceReading("ok", (IN,))
    assert off_tray(ok, AREA) is ok
    both = DiceReading("ok", (IN, OUT))
    assert off_tray(both, None) is both


def test_a_die_outside_the_tray_area_makes_it_off_tray_naming_that_die_and_keeping_the_dice():
    out = off_tray(DiceReading("ok", (IN, OUT)), AREA)
    assert (out.status, out.kind) == ("unreadable", "off_tray")
    assert out.reason == "the die at (612, 40) is off the tray (40, 30, 560, 420)"
    assert out.dice == (IN, OUT)


def test_a_wrong_count_or_cocked_reading_with_a_die_off_the_tray_is_off_tray_too():
    assert off_tray(wrong_count(2, (IN, OUT, IN)), AREA).kind == "off_tray"
    assert off_tray(unreadable("cocked", (OUT,), "cocked"), AREA).kind == "off_tray"


def test_noise_and_reader_failures_are_kept_as_they_are():
    failed = unreadable("reader failure", (OUT,), "failure")
    assert off_tray(failed, AREA) is failed


def test_the_tray_area_includes_its_edges():
    assert inside((40, 30), AREA) and inside((600, 450), AREA) and not inside((600.5, 450), AREA)
    assert inside((-5, -5), None)
