"""The randomised training scenes draw seeded images whose truth matches what is drawn."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.synth_scenes import SIZES, SceneDie, _CODES, _face_texture, _paint, _pick_look, _Scene, render_scene

SEEDS = range(40)


@pytest.fixture(scope="module")
def scenes():
    """(seed, image, truth) for a spread of seeds at 640x480."""
    return [(seed, *render_scene(seed, size=(640, 480))) for seed in SEEDS]


def test_a_scene_is_a_bgr_uint8_image_with_a_truth_per_die(scenes):
    for _, img, truth in scenes:
        assert img.shape == (480, 640, 3) and img.dtype == np.uint8
        for die in truth:
            assert isinstance(die, SceneDie)
            assert die.value in range(1, 7) and isinstance(die.value, int)
            assert isinstance(die.center, tuple) and all(isinstance(c, float) for c in die.center)
            assert die.top.dtype == np.float32 and die.top.ndim == 2 and die.top.shape[1] == 2
            assert len(die.box) == 4 and all(isinstance(v, int) for v in die.box) and die.box[2] > 0 and die.box[3] > 0
            assert isinstance(die.flat, bool) and 0.0 <= die.visible <= 1.0


def test_every_die_centre_lies_in_its_box_and_its_top_face_inside_the_box_too(scenes):
    for _, _, truth in scenes:
        for die in truth:
            x, y, w, h = die.box
            assert x <= die.center[0] <= x + w and y <= die.center[1] <= y + h
            assert np.all(die.top >= (x - 1, y - 1)) and np.all(die.top <= (x + w + 1, y + h + 1))


def test_the_same_seed_draws_the_same_scene_and_another_seed_another():
    a, ta = render_scene(11, size=(640, 480))
    b, tb = render_scene(11, size=(640, 480))
    c, _ = render_scene(12, size=(640, 480))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert len(ta) == len(tb)
    for da, db in zip(ta, tb):
        assert (da.value, da.center, da.box, da.flat, da.visible) == (db.value, db.center, db.box, db.flat, db.visible)
        assert np.array_equal(da.top, db.top)
    # The defaults (size and count) are seeded too.
    d, td = render_scene(5)
    e, te = render_scene(5)
    assert np.array_equal(d, e) and [t.center for t in td] == [t.center for t in te]


@pytest.mark.parametrize("size", [(320, 240), (1280, 960), (1280, 720), (480, 480)])
def test_small_large_wide_and_square_frames_work(size):
    for seed in range(2):
        img, truth = render_scene(seed, size=size, dice=4)
        assert img.shape == (size[1], size[0], 3) and len(truth) == 4


def test_the_default_size_is_a_common_camera_size_and_the_default_count_mostly_small():
    counts = []
    for seed in range(30):
        scene = _Scene(seed, None, None)
        assert scene.size in SIZES
        counts.append(sum(not s.look.blank for s in scene.solids))
    assert all(0 <= n <= 12 for n in counts) and np.median(counts) <= 5


def test_no_dice_gives_an_empty_scene_and_a_count_is_kept():
    for seed in range(3):
        img, truth = render_scene(seed, size=(640, 480), dice=0)
        assert truth == () and img.shape == (480, 640, 3)
    for n in (1, 5, 12):
        assert len(render_scene(7, size=(640, 480), dice=n)[1]) == n


def test_a_scene_whose_cup_leaves_the_dice_no_room_is_laid_without_the_cup():
    # Seed 7454 draws large dice in a deep bowl and a cup as wide as the bowl beside it: no die fitted.
    scene = _Scene(7454, None, None)
    assert scene.cup is None and len(scene.truth()) == 1


def test_bad_sizes_and_counts_are_refused():
    for kwargs in ({"size": (10, 10)}, {"size": (640,)}, {"dice": -1}, {"dice": 41}):
        with pytest.raises(ValueError):
            render_scene(0, **kwargs)


def test_the_face_drawn_at_each_visible_die_centre_is_its_value():
    # The same scene drawn with each face a flat colour of its value (no texture, light or sensor):
    # at the centre of every die that shows whole, the colour is that of the truth's value.
    checked = 0
    for seed in range(60):
        scene = _Scene(seed, (640, 480), None)
        codes = _paint(scene, codes=True)
        for die in scene.truth():
            if die.visible < 0.999:
                continue
            x, y = int(round(die.center[0])), int(round(die.center[1]))
            assert tuple(codes[y, x]) == _CODES[die.value], (seed, die)
            checked += 1
    assert checked > 100


def test_a_face_texture_has_as_many_pips_as_its_value():
    rng = np.random.default_rng(3)
    for _ in range(12):
        look = replace(_pick_look(rng), concave=0.0, ring=False, one_ring=False, body2=None, alpha=1.0, textures={})
        for value in range(1, 7):
            tex = _face_texture(look, value, 96)
            colour = tex[:, :, :3] / np.maximum(tex[:, :, 3:], 1e-6)
            pip = look.pip1 if value == 1 else look.pip4 if value == 4 else look.pip
            mask = ((np.abs(colour - pip).max(axis=2) < 30) & (tex[:, :, 3] > 0.99)).astype(np.uint8)
            n, _ = cv2.connectedComponents(mask)
            assert n - 1 == value, (look, value)


def test_opposite_faces_sum_to_seven_and_western_dice_are_right_handed():
    rng = np.random.default_rng(0)
    looks = [_pick_look(rng) for _ in range(300)]
    assert any(look.left for look in looks) and not all(look.left for look in looks)
    for look in looks:
        n = {v: np.array(look.normals[v]) for v in range(1, 7)}
        for v in range(1, 7):
            assert np.array_equal(n[v], -n[7 - v])
        # 1, 2, 3 run counter-clockwise around their shared corner on Western (right-handed) dice.
        handed = np.linalg.det(np.stack([n[1], n[2], n[3]]))
        assert handed == (-1 if look.left else 1)


def test_scenes_hold_flat_and_cocked_dice_some_hidden_in_part(scenes):
    dice = [d for _, _, truth in scenes for d in truth]
    assert any(not d.flat for d in dice) and sum(d.flat for d in dice) > len(dice) / 2
    assert any(d.visible < 0.9 for d in dice) and np.mean([d.visible for d in dice]) > 0.8


def test_a_cocked_die_is_tilted_15_to_45_degrees_and_a_flat_die_not_at_all():
    for seed in range(40):
        scene = _Scene(seed, (640, 480), None)
        for solid in scene.solids:
            up = max(float((solid.pose.rot @ np.asarray(n, float))[2]) for n in solid.look.normals.values())
            tilt = np.degrees(np.arccos(min(1.0, up)))
            assert tilt < 1e-6 if solid.pose.flat else 14.9 < tilt < 42.1
            assert solid.pose.centre[2] - solid.s * 0.999 > -1e-6  # nothing sinks into the floor


def test_the_top_face_drawn_in_the_image_shows_as_many_pips_as_its_value_where_its_truth_says(monkeypatch):
    # The real drawing (textures, light, walls, occluders) without the sensor step, dice in plain paint
    # (no drilled pips, rings, marbling, translucency or glare): inside each large, wholly visible top
    # face the pixels nearer the lit pip colour than the lit body colour form `value` blobs, each
    # centred on one of the truth's pips (the face reader learns its pip map from them).
    import vision.synth_scenes as synth_scenes

    monkeypatch.setattr(synth_scenes, "_sensor", lambda rng, img: img)
    checked = 0
    for seed in range(80):
        scene = _Scene(seed, (640, 480), None)
        for solid in scene.solids:
            look = solid.look
            look.concave, look.ring, look.one_ring, look.body2, look.alpha, look.gloss = 0.0, False, False, None, 1.0, 0.0
        img = _paint(scene).astype(np.float32)
        dice = [s for s in scene.solids if not s.look.blank]
        for solid, die in zip(dice, scene.truth()):
            if die.visible < 0.999 or cv2.contourArea(die.top) < 40 * 40:
                continue
            look = solid.look
            pip = look.pip1 if die.value == 1 else look.pip4 if die.value == 4 else look.pip
            if np.abs(pip - look.body).max() < 60:
                continue
            inner = (die.top - die.center) * 0.9 + die.center  # off the darker rounded edge
            mask = np.zeros(img.shape[:2], np.uint8)
            cv2.fillPoly(mask, [np.round(inner).astype(np.int32)], 1)
            ys, xs = np.nonzero(mask)
            px = img[ys, xs]
            # The face's light is one colour times both; find it from the brightest body-like pixels.
            scale = np.median(px / np.maximum(look.body, 1), axis=0)
            lit_pip, lit_body = np.minimum(pip * scale, 255), np.minimum(look.body * scale, 255)  # over-exposure clips
            nearer_pip = np.linalg.norm(px - lit_pip, axis=1) < np.linalg.norm(px - lit_body, axis=1)
            blobs = np.zeros_like(mask)
            blobs[ys[nearer_pip], xs[nearer_pip]] = 1
            n, _, stats, centroids = cv2.connectedComponentsWithStats(blobs)
            drawn = centroids[1:][stats[1:, cv2.CC_STAT_AREA] >= 4]
            assert len(drawn) == die.value == len(die.pips), (seed, die.value)
            nearest = np.linalg.norm(drawn[:, None] - die.pips[None], axis=2).min(axis=1)
            assert np.all(nearest < 1.5), (seed, die.value, nearest)
            checked += 1
    assert checked >= 20
