"""A game with each house rule that is not the default, over the local Discord: the
moderator sets it in the lobby with /mod house_rules, the lobby post shows it, the game is played to its end,
the table sees what the rule says (and no more), and the exported log replays exactly."""

from __future__ import annotations

import pytest

from bot.features.replay.verify import verify_log
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions
from tests.e2e.conftest import Played, play_tables, run

RULES = {
    "killer_takes": {"killing_blow": "killer_takes"},
    "departures_morning": {"departures": "morning"},
    "vote_damage_private": {"vote_damage": "private"},
}


@pytest.fixture(scope="module")
def games() -> dict[str, Played]:
    options = [GameOptions(house_rules=rules, lean=True) for rules in RULES.values()]
    played = run(play_tables(len(RULES), players=7, seed="house-rules", options=options))
    return dict(zip(RULES, played, strict=True))


@pytest.mark.parametrize("name", list(RULES))
def test_the_game_plays_to_its_end_and_its_log_replays(games: dict[str, Played], name: str):
    game = games[name]
    assert game.report.over, game.public_texts()[-3:]
    assert game.server_errors == [] and game.stats.failed == 0
    (rule, value), = RULES[name].items()
    # The lobby post named the house rule as chosen.
    line = t(f"reply.settings.{rule}", "en-US", value=t(f"cmd.choice.{rule}_{value}", "en-US"))
    assert any(line in text for text in game.public_texts()), line
    log = game.extra["log"]
    assert log is not None and log["game"]["settings"][rule] == value
    report = verify_log(log)
    assert report.ok, report.mismatch
    # Tampering with the rule in the log's header is caught.
    other = next(v for v in ({"killing_blow": "steal", "departures": "dawn", "vote_damage": "public"}[rule],) if v != value)
    log["game"]["settings"][rule] = other
    assert not verify_log(log).ok


def test_held_departures_are_told_after_the_vote(games: dict[str, Played]):
    texts = games["departures_morning"].public_texts()
    held = t("event.DeparturesHeld", "en-US")
    dawns = [x for x in texts if held in x]
    assert dawns, "every dawn says the news waits"
    # No departure is ever announced in a dawn post: each comes after vote counts, or at the end.
    for text in texts:
        if held in text:
            assert reader.match("event.PlayerLeft", text) is None
            assert not any(reader.match("event.PlayerLeft", x) for x in text.splitlines())
    left = [i for i, x in enumerate(texts) if any(reader.match("event.PlayerLeft", y) for y in x.splitlines())]
    assert left, "somebody left the game"


def test_the_vote_damage_is_not_named_in_public(games: dict[str, Played]):
    game = games["vote_damage_private"]
    texts = "\n".join(game.public_texts())
    assert t("event.VoteHurtPrivate", "en-US") in texts
    assert not any(reader.match("event.VoteHurt", x) or reader.match("event.VoteHurt_one", x) for x in texts.splitlines())
