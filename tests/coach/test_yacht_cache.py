"""The on-disk cache: solved once, loaded after, atomic, and a corrupt or foreign file is solved again."""

from __future__ import annotations

import numpy as np
import pytest

from appliance.coach import yacht_cache
from appliance.coach.yacht_cache import cache_path, default_cache_dir, load_or_solve, read_tables
from appliance.coach.yacht_solver import YachtRules


def same(a, b):
    return np.array_equal(a.turn, b.turn) and np.array_equal(a.keep, b.keep) and np.array_equal(a.game, b.game)


def forbid_solving(monkeypatch):
    def fail(rules):
        raise AssertionError("solved although the cache was good")

    monkeypatch.setattr(yacht_cache, "solve", fail)


def test_first_use_solves_and_stores_later_uses_load(tmp_path, monkeypatch, solved):
    tables = load_or_solve(YachtRules(), tmp_path)
    assert cache_path(YachtRules(), tmp_path).is_file()
    assert same(tables, solved())
    forbid_solving(monkeypatch)
    assert same(load_or_solve(YachtRules(), tmp_path), tables)
    assert [p.name for p in tmp_path.iterdir()] == ["yacht-coach-v1-seed-fh0.npz"]  # no temporary left


def test_each_set_of_rules_has_its_own_file(tmp_path):
    load_or_solve(YachtRules("seed"), tmp_path)
    load_or_solve(YachtRules("sackson", True), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["yacht-coach-v1-sackson-fh1.npz", "yacht-coach-v1-seed-fh0.npz"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: b"not a zip file at all",
        lambda data: data[: len(data) // 2],
        lambda data: data[:1000] + bytes([data[1000] ^ 0xFF]) + data[1001:],  # inside the tables: CRC fails
    ],
    ids=["empty", "garbage", "truncated", "flipped-byte"],
)
def test_a_corrupt_cache_is_solved_again_and_replaced(tmp_path, solved, damage):
    path = cache_path(YachtRules(), tmp_path)
    load_or_solve(YachtRules(), tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    assert read_tables(path, YachtRules()) is None
    assert same(load_or_solve(YachtRules(), tmp_path), solved())
    assert read_tables(path, YachtRules()) is not None


def test_a_file_of_other_rules_under_this_name_is_not_trusted(tmp_path, solved):
    load_or_solve(YachtRules("sackson"), tmp_path)
    cache_path(YachtRules("sackson"), tmp_path).rename(cache_path(YachtRules("seed"), tmp_path))
    assert read_tables(cache_path(YachtRules("seed"), tmp_path), YachtRules("seed")) is None
    assert same(load_or_solve(YachtRules("seed"), tmp_path), solved())


def test_an_unwritable_cache_directory_still_gives_the_tables(tmp_path, solved):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert same(load_or_solve(YachtRules(), blocker / "cache"), solved())


def test_the_cache_directory_follows_systemd_then_xdg_then_home(monkeypatch, tmp_path):
    for variable in ("CACHE_DIRECTORY", "STATE_DIRECTORY", "XDG_CACHE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "dicetable"
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert default_cache_dir() == yacht_cache.Path("/xdg/dicetable")
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/dicetable")
    assert default_cache_dir() == yacht_cache.Path("/var/lib/dicetable")
    monkeypatch.setenv("CACHE_DIRECTORY", "/var/cache/dicetable:/var/cache/other")
    assert default_cache_dir() == yacht_cache.Path("/var/cache/dicetable")


def test_a_cache_file_holding_a_single_array_is_solved_again(tmp_path, solved):
    # np.load gives an ndarray, not an archive, for a file that starts as a plain .npy does.
    path = cache_path(YachtRules(), tmp_path)
    with open(path, "wb") as f:
        np.save(f, np.arange(5))
    assert read_tables(path, YachtRules()) is None
    assert same(load_or_solve(YachtRules(), tmp_path), solved())
    assert read_tables(path, YachtRules()) is not None
