"""Morning: the public vote (RULES: Morning; R4)."""

from __future__ import annotations

from engine.dice import Dice
from engine.events import Event, audit, public
from engine.health import apply_damage
from engine.model import GameState, VoteDamageRule, VoteTieRule

VOTE_DAMAGE = 1


def count_votes(state: GameState, dice: Dice, events: list[Event], votes: dict[int, int]) -> list[int]:
    """The most-voted living name takes 1 damage (no source: no kill points). Counts are
    published (and who is hurt, unless the house rule ``vote_damage`` keeps that to
    them); who voted for whom is not. A vote for a player who departed in a night not
    yet announced counts for nobody. Returns the seats hurt."""
    tally: dict[int, int] = {}
    for voter, target in sorted(votes.items()):
        if state.player(voter).alive and state.player(target).alive:
            tally[target] = tally.get(target, 0) + 1
    counts = [{"seat": s, "name": state.player(s).name, "votes": n} for s, n in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))]
    if not tally:
        events.append(public("VotesCounted", round=state.round, counts=[], hurt=[]))
        return []
    top = max(tally.values())
    tied = sorted(s for s, n in tally.items() if n == top)
    rule = state.settings.vote_tie_rule
    if len(tied) == 1 or rule is VoteTieRule.ALL:
        hurt = tied
    elif rule is VoteTieRule.NOBODY:
        hurt = []
    else:
        hurt = [dice.pick(tied, "vote-tie")]
    if state.settings.vote_damage is VoteDamageRule.PUBLIC:
        events.append(public("VotesCounted", round=state.round, counts=counts, hurt=hurt))
    else:  # house rule: the counts are public, who took the damage is told only to them
        events.append(public("VotesCounted", round=state.round, counts=counts))
        events.append(audit("VoteDamage", hurt=hurt))
    events.append(audit("VoteDetail", votes={str(k): v for k, v in sorted(votes.items())}))
    for seat in hurt:
        apply_damage(state, events, state.player(seat), VOTE_DAMAGE, None, "vote")
    return hurt
