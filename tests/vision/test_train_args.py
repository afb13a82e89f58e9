"""``python -m vision.train``'s arguments: a combination that cannot train is refused at once, before
the scenes are drawn and the finder's finds mined (no torch needed to check)."""

import pytest

from vision.train.__main__ import parse


def test_mixup_with_teachers_is_refused_at_once(capsys):
    with pytest.raises(SystemExit) as stop:
        parse(["--mixup", "0.2", "--teacher", "face.onnx"])
    assert stop.value.code == 2 and "--mixup and --teacher do not go together" in capsys.readouterr().err


def test_a_negative_mixup_is_refused_at_once(capsys):
    with pytest.raises(SystemExit) as stop:
        parse(["--mixup", "-1"])
    assert stop.value.code == 2 and "alpha is 0 (none) or more" in capsys.readouterr().err


def test_mixup_alone_and_teachers_alone_are_taken():
    assert parse(["--mixup", "0.2"]).mixup == 0.2
    assert parse(["--teacher", "face.onnx"]).mixup == 0.0


def test_a_negative_pip_weight_and_pips_with_mixup_are_refused_at_once(capsys):
    for argv, says in ((["--pips", "-0.5"], "a weight is 0 (none) or more"),
                       (["--pips", "1", "--mixup", "0.2"], "--mixup and --pips do not go together")):
        with pytest.raises(SystemExit) as stop:
            parse(argv)
        assert stop.value.code == 2 and says in capsys.readouterr().err
    assert parse(["--pips", "1"]).pips == 1.0 and parse([]).pips == 0.0


def test_widths_are_counted_and_positive_or_refused_at_once(capsys):
    assert parse(["--finder-widths", "16,40,80,128,224"]).finder_widths == (16, 40, 80, 128, 224)
    assert parse(["--face-widths", "16,32,64,96"]).face_widths == (16, 32, 64, 96)
    assert parse([]).finder_widths is None and parse([]).face_widths is None
    for argv in (["--finder-widths", "16,32,64,96"], ["--face-widths", "16,32,x,96"],
                 ["--finder-widths", "16,0,64,96,160"]):
        with pytest.raises(SystemExit) as stop:
            parse(argv)
        assert stop.value.code == 2 and "positive whole numbers separated by commas" in capsys.readouterr().err


@pytest.mark.parametrize("decay", ["1", "-0.5"])
def test_an_ema_decay_outside_zero_to_one_is_refused_at_once(capsys, decay):
    with pytest.raises(SystemExit) as stop:
        parse(["--ema", decay])
    assert stop.value.code == 2 and "--ema: a decay per step" in capsys.readouterr().err


SHARES = ("--small-dice", "--mixstyle", "--finder-mixstyle", "--finder-slant", "--finder-mosaic", "--randconv")


@pytest.mark.parametrize("share", ["1.5", "-0.1"])
@pytest.mark.parametrize("flag", SHARES)
def test_a_share_outside_zero_to_one_is_refused_at_once(capsys, flag, share):
    with pytest.raises(SystemExit) as stop:
        parse([flag, share])
    assert stop.value.code == 2 and f"{flag}: a share is 0-1" in capsys.readouterr().err
    name = flag[2:].replace("-", "_")
    assert getattr(parse([flag, "0.5"]), name) == 0.5 and getattr(parse([]), name) == 0.0


def test_randconv_with_teachers_is_refused_at_once(capsys):
    with pytest.raises(SystemExit) as stop:
        parse(["--randconv", "0.5", "--teacher", "t.onnx"])
    assert stop.value.code == 2 and "--randconv and --teacher" in capsys.readouterr().err
