"""The golden deals replay card for card: the same seeds give the same deals at every level.

The records in tests/data/golden/ were played before the engine's copies were folded
(see tests/play/golden.py); a change that alters any card any level plays fails here.
"""

from __future__ import annotations

import json

import pytest

from tests.play.golden import GAMES, LEVELS, path, play


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", GAMES)
def test_golden_deals_replay(game: str, level: str) -> None:
    stored = json.loads(path(game, level).read_text())
    fresh = play(game, level)
    assert len(fresh) == len(stored) > 0
    for old, new in zip(stored, fresh, strict=True):
        assert new == old, f"{game} {level}, seed {old['seed']}: {new['players']}"
