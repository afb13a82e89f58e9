"""Fixtures of the coach's tests: solved tables shared by the session, a private cache directory."""

from __future__ import annotations

import pytest

from appliance.coach.yacht_advice import _coach
from appliance.coach.yacht_solver import YachtRules, solve

@pytest.fixture(scope="session")
def solved():
    """``solved(rules=YachtRules())`` -> YachtTables, each set of rules solved once per session."""
    tables = {}

    def get(rules: YachtRules = YachtRules()):
        if rules not in tables:
            tables[rules] = solve(rules)
        return tables[rules]

    return get


@pytest.fixture(scope="module")
def default_cache(tmp_path_factory):
    """The default cache directory pointed at a temporary one (never the user's ~/.cache)."""
    patch = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("xdg-cache")
    patch.setenv("XDG_CACHE_HOME", str(base))
    patch.delenv("CACHE_DIRECTORY", raising=False)
    patch.delenv("STATE_DIRECTORY", raising=False)
    _coach.cache_clear()
    yield base / "dicetable"
    _coach.cache_clear()
    patch.undo()
