"""The coach: the optimal declared-Yacht player and the Mäxle odds, for hints and ``dicetable advise``.

The kiosk's API (small data, the kiosk words it in its language):

- ``yacht_hint(roll, used, declared=None, rolls_left=2, rules=None) -> YachtHint | None``
- ``coach_for(rules) -> YachtCoach`` with ``declarations``, ``keep``, ``position_value``, ``hint``
- ``maexle_odds(announcement) -> MaexleOdds`` (ways out of 36 to beat, to reach, to equal it)

Modules: ``yacht_solver`` (the pure solve), ``yacht_cache`` (on disk), ``yacht_advice`` (answers),
``yacht_simulation`` (Monte Carlo check), ``maexle_odds``.
"""

from appliance.coach.maexle_odds import MaexleOdds, maexle_odds, odds_table
from appliance.coach.yacht_advice import Declaration, Keep, YachtCoach, YachtHint, coach_for, yacht_hint
from appliance.coach.yacht_solver import YachtRules

__all__ = [
    "Declaration", "Keep", "MaexleOdds", "YachtCoach", "YachtHint", "YachtRules",
    "coach_for", "maexle_odds", "odds_table", "yacht_hint",
]
