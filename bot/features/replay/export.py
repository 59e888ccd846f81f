"""The game log as JSON. After the end (over or cancelled) it is complete: the secret
seed, every step with the submissions that produced it, its events (all audiences), its
rolls and the state after it, so that ``wolfhowl verify`` can replay the game. Before the
end it holds only what the table may see: public events and the seed's SHA-256."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import engine
from bot.core import policy, table
from bot.core.errors import GameNeverPlayedError, GameNotFoundError, GameNotOverError
from bot.core.policy import Action, Standing
from bot.core.rules import decode_state
from bot.core.table import Table
from bot.core.types import check_id
from bot.db import repositories as repo
from bot.db.models import Game
from bot.db.repos import gallery as gallery_repo
from bot.db.session import Database
from bot.features.gallery.predictions import scores_of

LOG_FORMAT = "wolfhowl-log"
LOG_VERSION = 1


def stamp(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


async def export_game(db: Database, game_id: int) -> dict[str, Any]:
    """The game's log as a JSON-safe dict (see the module docstring)."""
    async with table.of(db, game_id, writing=False) as t:
        return await log_of(t)


async def log_of(t: Table) -> dict[str, Any]:
    """The log of the game of ``t`` (see :func:`export_game`)."""
    game, s = t.game, t.session
    finished = game.status in ("over", "cancelled")
    members = await t.players()
    steps = await repo.steps(s, game.id)
    out: dict[str, Any] = {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "complete": finished,
        "game": {
            "id": game.id,
            "guild_id": game.guild_id,
            "channel_id": game.channel_id,
            "moderator_id": game.moderator_id,
            "status": game.status,
            "language": game.language,
            "settings": game.settings,
            # The rules version it is played by (engine.rules), as its state says or,
            # stored before versions were recorded, as of the day it was dealt.
            "rules_version": decode_state(game).settings.rules_version if game.state is not None else None,
            "round": game.round,
            "phase": game.phase,
            "end_reason": game.end_reason,
            "created_at": stamp(game.created_at),
            "started_at": stamp(game.started_at),
            "ended_at": stamp(game.ended_at),
            "seed_sha256": game.seed_sha256,
            "seed": game.secret_seed if finished and game.state is not None else None,
        },
        "players": [
            {
                "user_id": m.user_id,
                "name": m.display_name,
                "seat": m.seat if m.seat is not None else m.former_seat,
                "status": m.status,
            }
            for m in members
        ],
        "steps": [],
    }
    for st in steps:
        entry: dict[str, Any] = {
            "seq": st.seq,
            "kind": st.kind,
            "round": st.round,
            "phase": st.phase,
            "at": stamp(st.created_at),
        }
        if finished:
            entry |= {"inputs": st.inputs, "events": st.events, "rolls": st.rolls, "state": st.state}
        else:
            entry["events"] = [e for e in st.events if e["audience"] == engine.Audience.PUBLIC.value]
        out["steps"].append(entry)
    if finished:
        # The gallery's predictions, once the game has ended (left out when nobody
        # predicted, so a log without them reads as before).
        picks = await gallery_repo.picks_with_names(s, game.id)
        if picks:
            out["predictions"] = [{"round": r, "user_id": u, "name": n, "faction": f} for r, u, f, n in picks]
            winners = list((game.state or {}).get("winners") or [])
            scores = scores_of(((int(r), int(u), str(f)) for r, u, f, _ in picks), winners)
            out["prediction_scores"] = [{"user_id": x.user_id, "rounds": x.rounds, "brier": x.brier} for x in scores]
    return out


def log_bytes(log: dict[str, Any]) -> bytes:
    """The log as the file ``/mod log`` attaches and ``wolfhowl export`` writes."""
    return json.dumps(log, ensure_ascii=False, indent=1).encode()


async def export_finished(db: Database, game_id: int) -> dict[str, Any]:
    """The complete log of a game that has ended, for its replay and ``wolfhowl export``:
    refused while it is in play (the log would then hold only what the table may see,
    and a replay must not be mistaken for the whole game), and for a lobby cancelled
    before the start (nothing was played)."""
    log = await export_game(db, game_id)
    if not log["complete"]:
        raise GameNotOverError(game_id=game_id)
    if not log["steps"]:
        raise GameNeverPlayedError(game_id=game_id)
    return log


async def replay_for(db: Database, game_id: int, standing: Standing) -> dict[str, Any]:
    """A finished game's complete log for one who asked on Discord (its Replay button):
    for those who sat in it and those who can see its channel (the access policy's
    ``see_ended``), whatever game id the button carried."""
    check_id(game_id, "game")
    async with db.read() as s:
        game = await s.get(Game, game_id)
        if game is None:
            raise GameNotFoundError()
        policy.require(Action.SEE_ENDED, standing, game, await repo.member(s, game.id, standing.user_id))
    return await export_finished(db, game_id)
