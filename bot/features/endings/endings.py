"""Each player's private ending: at a game's end, every person holding a seat (alive or
departed) is told by DM (``/inbox`` where DMs are closed, as for any DM) whether they
won or lost and why, the final scores, the points they brought their faction, their
rating's move when the game was rated, and the replay (the message's button). Written
in the step that ends the game, after that step's news; an AI seat gets none, and
nor does a player who left their seat before the end (removed or replaced: they were
told then).

A player's points are read from the game log's ``ScoreChanged`` events credited to
their seat while they held it (a replacement's holder starts from nothing): grails won
at Day, steals and kills for their own faction, a teamkill counted (it scored for the
others), and the survivor's points when alive at the end. The head starts a faction was
dealt (house rule uneven_tables) are the start step's, shown beside the scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine
from bot.core import hooks
from bot.core.hooks import Step
from bot.core.messages import Ending
from bot.core.outbox import Mail
from bot.db import repositories as repo
from bot.db.models import GameStep
from bot.features.records.ratings import RatingChange
from bot.features.records.records import result_of
from engine.scoring import SURVIVOR_POINTS
from engine.values import FACTIONS

# Scored by a seat for its own faction, by the ScoreChanged reason.
OWN_POINTS = ("allocation", "steal", "kill")


def seat_points(state: engine.GameState, steps: Sequence[GameStep]) -> dict[int, dict[str, int]]:
    """Per seat, what its last holder scored: ``{reason: points}`` for the reasons of
    OWN_POINTS, ``teamkills`` (how many), ``survivors`` (the survivor's points) and
    ``total`` (the points they brought their own faction)."""
    out: dict[int, dict[str, int]] = {p.seat: {} for p in state.players}
    for step in steps:
        if step.kind == "replace":
            out[int(step.inputs.get("seat", 0))] = {}
            continue
        for e in step.events:
            data = e.get("data") or {}
            seat = data.get("seat")
            if e.get("kind") != "ScoreChanged" or not isinstance(seat, int) or seat not in out:
                continue
            reason = str(data.get("reason"))
            mine = out[seat]
            if reason in OWN_POINTS and data.get("faction") == state.player(seat).faction.value:
                mine[reason] = mine.get(reason, 0) + int(data.get("points", 0))
            elif reason == "teamkill":
                # One kill scores for each other faction: count the kill once.
                mine.setdefault("teamkill_events", 0)
                mine["teamkill_events"] += 1
    factions = len(FACTIONS) - 1
    for p in state.players:
        mine = out[p.seat]
        if "teamkill_events" in mine:
            mine["teamkills"] = mine.pop("teamkill_events") // max(1, factions)
        if p.alive:
            mine["survivors"] = SURVIVOR_POINTS
        mine["total"] = sum(mine.get(k, 0) for k in (*OWN_POINTS, "survivors"))
    return out


@hooks.TOLD.listen(20)
async def game_told(step: Step) -> None:
    """(The step that ends the game is told.) Each player's ending."""
    if step.over:
        await mail_endings(step.told(), await step.table.holders(), step.table.state, step.ratings)


async def mail_endings(mail: Mail, holders: dict[int, Any], state: engine.GameState, ratings: dict[int, RatingChange]) -> None:
    """One ending to each person holding a seat of the game that has just ended (see the
    module's docstring); ``ratings``: each rated player's rating before and after."""
    steps = await repo.steps(mail.session, mail.game.id)
    points = seat_points(state, steps)
    head_starts = {
        str(e["data"]["faction"]): int(e["data"]["points"])
        for step in steps if step.kind == "start"
        for e in step.events if e.get("kind") == "ScoreChanged" and (e.get("data") or {}).get("reason") == "head_start"
    }  # fmt: skip
    for seat, holder in sorted(holders.items()):
        if holder.user_id is None or holder.seat != seat or holder.status == "removed":
            continue
        p = state.player(seat)
        faction = p.faction.value
        rating = None
        if holder.user_id in ratings:
            before, after = ratings[holder.user_id]
            rating = {"before": before, "after": after}
        ending = Ending(
            seat=seat, class_id=p.class_id, faction=faction, alive=p.alive, result=result_of(state, faction),
            reason=state.end_reason, round=state.round, scores=dict(state.scores), winners=list(state.winners),
            points=points.get(seat, {}), rating=rating, head_starts=head_starts or None,
        )  # fmt: skip
        mail.private(holder.user_id, ending)
