"""The pip reader on the real labelled photos (../shared/dice-photos), given each photo's number of
dice as the appliance knows it: the issue's targets, per source. Reads the whole manifest once
(about 30 s on one core); skips when the photos are missing.

Targets not reached yet are marked xfail with the last measured figures (full set, expected count
given), not weakened: when the reader reaches one, its test starts passing (XPASS) and the mark
goes. See ``python -m vision.evaluate --split all --errors`` for the table and every miss.
"""

from __future__ import annotations

import pytest

from vision.evaluate import DEFAULT_MANIFEST, load_manifest, run, summarise

# (source, subset, figure, bound): at least the bound for per_die and exact, at most for ok_wrong.
TARGETS = [
    ("matteop65", "table_like", "exact", 0.90),
    ("nell-byler", "table_like", "exact", 0.85),
    ("epanemu-dice3", "table_like", "exact", 0.60),
    ("epanemu-dice3-trainaug", "table_like", "exact", 0.60),
    ("nell-byler", "all", "per_die", 0.80),
    ("matteop65", "all", "per_die", 0.80),
    ("epanemu-dice3", "all", "per_die", 0.60),
    ("epanemu-dice3-trainaug", "all", "per_die", 0.60),
] + [(source, "table_like", "ok_wrong", 0.02) for source in
     ("nell-byler", "matteop65", "epanemu-dice3", "epanemu-dice3-trainaug")] + [
    (source, "all", "ok_wrong", 0.05) for source in
    ("nell-byler", "matteop65", "epanemu-dice3", "epanemu-dice3-trainaug")]

# Not reached yet, with the figure last measured on the full set (712 photos, expected count given).
NOT_YET = {
    ("matteop65", "table_like", "exact"): "88.8%",
    ("nell-byler", "table_like", "exact"): "53.1%",
    ("epanemu-dice3", "table_like", "exact"): "45.0%",
    ("epanemu-dice3-trainaug", "table_like", "exact"): "37.4%",
    ("nell-byler", "all", "per_die"): "60.7%",
    ("epanemu-dice3", "all", "per_die"): "35.8%",
    ("epanemu-dice3-trainaug", "all", "per_die"): "39.7%",
    ("nell-byler", "table_like", "ok_wrong"): "3.7%",
    ("epanemu-dice3-trainaug", "table_like", "ok_wrong"): "7.0%",
    ("nell-byler", "all", "ok_wrong"): "7.3%",
    ("epanemu-dice3", "all", "ok_wrong"): "5.3%",
    ("epanemu-dice3-trainaug", "all", "ok_wrong"): "6.8%",
}


def _case(target):
    source, subset, figure, bound = target
    marks = ()
    if (source, subset, figure) in NOT_YET:
        # Only the target's own assertion may fail: a fault (a photo not loading) is still an error.
        marks = pytest.mark.xfail(raises=AssertionError,
                                  reason=f"not reached: {NOT_YET[(source, subset, figure)]} against "
                                         f"{'at most' if figure == 'ok_wrong' else 'at least'} {bound:.0%}")
    return pytest.param(*target, marks=marks, id=f"{source}-{subset}-{figure}")


@pytest.fixture(scope="module")
def results():
    if not DEFAULT_MANIFEST.is_file():
        pytest.skip(f"real dice photos not found at {DEFAULT_MANIFEST.parent} (they live beside the repository in ../shared)")
    return run(load_manifest(DEFAULT_MANIFEST), DEFAULT_MANIFEST.parent)


@pytest.mark.parametrize("source, subset, figure, bound", [_case(t) for t in TARGETS])
def test_the_reader_reaches_the_issue_targets_on_real_photos(results, source, subset, figure, bound):
    value = getattr(summarise(results)[(source, subset)], figure)
    if figure == "ok_wrong":
        assert value <= bound, f"{value:.1%} of ok readings wrong"
    else:
        assert value >= bound, f"{value:.1%}"


def test_no_photo_makes_the_reader_fail(results):
    # The reader's safety net never answers on real photos (it would hide a fault).
    failed = [r.photo.file for r in results if r.reading.kind == "failure"]
    assert not failed
