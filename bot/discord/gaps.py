"""Use cases the Discord layer needs that ``bot.service`` does not offer (yet).

Each function here is used only when the service has no function of the same name
(see :func:`use`), so when the service grows them this module simply stops being used.
They are written with the service's own helpers and repositories, one unit of work each,
and keep its conventions (ServiceError on refusal, nothing written when refused).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from sqlalchemy import select

import bot.service as service
from bot.db import repositories as repo
from bot.db.models import Game
from bot.db.session import Database
from bot.service.common import check_id, info_of, locked_game, settings_of
from bot.service.errors import BadArgumentError, GameFinishedError, GameNotFoundError
from bot.service.types import GameInfo, GameSettings

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])

# Settings that change how the engine resolves phases: fixed once the roles are dealt.
RULE_SETTINGS = frozenset({"max_players", "vote_tie_rule", "reveal_on_death", "win_score"})


def use(name: str, fallback: F) -> F:
    """The service's ``name`` when it has one, else our fallback."""
    return cast(F, getattr(service, name, fallback))


@dataclass(frozen=True, slots=True)
class PhaseStatus:
    """Who has sent which kinds of submission in the open phase (never their content)."""

    game: GameInfo
    sent: dict[int, tuple[str, ...]]


async def _phase_status(db: Database, game_id: int) -> PhaseStatus:
    async with db.read() as s:
        game = await repo.get_game(s, check_id(game_id, "game"))
        if game is None:
            raise GameNotFoundError(game_id=game_id)
        info = await info_of(s, game)
        sent: dict[int, list[str]] = {}
        if game.status in ("running", "paused") and game.phase:
            for row in await repo.phase_submissions(s, game.id, game.round, game.phase):
                sent.setdefault(row.seat, []).append(row.kind)
        return PhaseStatus(info, {seat: tuple(kinds) for seat, kinds in sent.items()})


async def _update_settings(db: Database, game_id: int, **changes: Any) -> GameInfo:
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status in ("over", "cancelled"):
            raise GameFinishedError(game_id=game.id)
        current = settings_of(game)
        if game.status != "lobby":
            fixed = sorted(k for k in changes if k in RULE_SETTINGS and changes[k] != getattr(current, k))
            if fixed:
                raise BadArgumentError(field=fixed[0], reason="fixed once the game has started")
        updated = GameSettings.build(**(current.model_dump() | changes))
        game.settings = updated.model_dump()
        game.language = updated.language
        await s.flush()
        return await info_of(s, game)


async def _latest_game_in_channel(db: Database, channel_id: int) -> GameInfo | None:
    async with db.read() as s:
        stmt = select(Game).where(Game.channel_id == check_id(channel_id, "channel")).order_by(Game.id.desc()).limit(1)
        game = (await s.execute(stmt)).scalar_one_or_none()
        return None if game is None else await info_of(s, game)


async def _games_moderated_by(db: Database, user_id: int) -> list[GameInfo]:
    async with db.read() as s:
        stmt = (
            select(Game)
            .where(Game.moderator_id == check_id(user_id, "user"), Game.active_channel_id.is_not(None))
            .order_by(Game.id)
        )
        return [await info_of(s, g) for g in (await s.execute(stmt)).scalars()]


async def _live_games(db: Database) -> list[GameInfo]:
    async with db.read() as s:
        stmt = select(Game).where(Game.active_channel_id.is_not(None)).order_by(Game.id)
        return [await info_of(s, g) for g in (await s.execute(stmt)).scalars()]


phase_status = use("phase_status", _phase_status)
update_settings = use("update_settings", _update_settings)
latest_game_in_channel = use("latest_game_in_channel", _latest_game_in_channel)
games_moderated_by = use("games_moderated_by", _games_moderated_by)
live_games = use("live_games", _live_games)
