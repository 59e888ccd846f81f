"""The game log as JSON. After the end (over or cancelled) it is complete: the secret
seed, every step with the submissions that produced it, its events (all audiences), its
rolls and the state after it, so that ``wolfhowl verify`` can replay the game. Before the
end it holds only what the table may see: public events and the seed's SHA-256."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select

import engine
from bot.db import repositories as repo
from bot.db.models import GamePlayer
from bot.db.session import Database
from bot.service.common import check_id
from bot.service.errors import GameNeverPlayedError, GameNotFoundError, GameNotOverError

LOG_FORMAT = "wolfhowl-log"
LOG_VERSION = 1


def stamp(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


async def export_game(db: Database, game_id: int) -> dict[str, Any]:
    """The game's log as a JSON-safe dict (see the module docstring)."""
    async with db.read() as s:
        game = await repo.get_game(s, check_id(game_id, "game"))
        if game is None:
            raise GameNotFoundError(game_id=game_id)
        finished = game.status in ("over", "cancelled")
        members = (await s.execute(select(GamePlayer).where(GamePlayer.game_id == game.id).order_by(GamePlayer.id))).scalars()
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
