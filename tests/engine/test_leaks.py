"""Nothing secret reaches the public channel before the rules allow: over thousands of
random games, every public event is of a public kind and carries no class, faction, roll,
hit or score — except the end of the game and, where the server chose it, reveal-on-death."""

import pytest

from engine import Audience, Settings
from engine.events import PUBLIC_KINDS
from tests.engine.randplay import play

SECRET_KEYS = {"class_id", "faction", "roll", "need", "hit", "scores", "points", "source", "numbers", "mean", "winner", "votes_by"}
ALLOWED = {
    "FactionWipedOut": {"faction"},  # the rules publish a faction's wipe-out
    "GameEnded": SECRET_KEYS,  # everything is revealed at the end
}
GAMES = 150  # careless random players (long games); the simulator test adds thousands of sensible ones


def check_public(event, settings):
    assert event.kind in PUBLIC_KINDS, event.kind
    allowed = set(ALLOWED.get(event.kind, set()))
    if event.kind == "PlayerLeft" and settings.reveal_on_death:
        allowed |= {"class_id", "faction"}
    leaked = (set(event.data) & SECRET_KEYS) - allowed
    assert not leaked, (event.kind, leaked)
    if event.kind == "VotesCounted":
        for row in event.data["counts"]:
            assert set(row) == {"seat", "name", "votes"}


@pytest.mark.parametrize("reveal", [False, True])
def test_no_public_event_leaks_over_thousands_of_games(reveal):
    settings = Settings(reveal_on_death=reveal)
    games = GAMES // 2
    public_seen = 0
    for i in range(games):
        played = play(f"leak-{reveal}-{i}", players=6 + i % 10, settings=settings)
        for o in played.outcomes:
            over = o.state.over
            for e in o.events:
                if e.audience is Audience.PUBLIC:
                    public_seen += 1
                    check_public(e, settings)
                    if e.kind == "GameEnded":
                        assert over
                elif e.audience is Audience.PRIVATE:
                    assert e.seat is not None
    assert public_seen > games  # the test saw real traffic


def test_private_news_goes_only_to_its_own_seat():
    played = play("private-seat")
    for o in played.outcomes:
        for e in o.events:
            if e.kind in ("DamageTaken", "Healed", "Recovered") and e.audience is Audience.PRIVATE:
                assert o.state.player(e.seat).max_hp == e.data["max_hp"]
