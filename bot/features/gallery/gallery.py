"""The gallery: a game's room for those who no longer play it (the departed) and those who
never did (spectators, ``/game watch``). It is the dead's channel of the game channel
(``bot.discord.guild.quiet_dead``): the living cannot read it, which Discord's own
permission overwrites enforce, derived by the reconciler from what is stored here.

Spectators are stored one row per (game, user). Who reads the gallery: the departed and
the spectators watching now. Who stays muted in the game channel until the end: those
too, and the spectators who stopped watching after the start (they saw the gallery). A
spectator takes no seat of the game they watch: the lobby refuses them while they
watch (nothing of the game has been shown before its start), the standby list and a
moderator's replacement once the game has started.

What the gallery is shown besides the dead's chat is the game's setting ``gallery``:
``chat`` nothing more; ``open`` the hidden truth of each step of the log (the deal, every
phase's events of every audience and its rolls) written in the step's own unit of work;
``late`` the truth of round r written in the step that closes round r + 1 (its Morning),
never earlier. The start's deal counts as round 0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core import hooks, policy, table
from bot.core.errors import GameFinishedError
from bot.core.hooks import Step
from bot.core.messages import GalleryTruth
from bot.core.outbox import Mail
from bot.core.policy import Action, Standing
from bot.core.rules import settings_of
from bot.core.table import Place
from bot.core.types import GameInfo, UserRef, check_id
from bot.db import repositories as repo
from bot.db.models import Game, Spectator
from bot.db.repos import gallery as gallery_repo
from bot.db.repos import standbys as standbys_repo
from bot.db.session import Database
from bot.features.gallery.errors import (
    GalleryPracticeError,
    JoinWhileWatchingError,
    NewcomerWatchedError,
    NotWatchingError,
    WatchAliveError,
    WatchedGameSeatError,
    WatchFormerSeatError,
    WatchLobbyError,
    WatchStandbyError,
)

LIVE = ("lobby", "running", "paused")
# The step kinds whose truth the gallery is shown (a moderator's removal or replacement
# says what it has to say in the channel).
TRUTH_STEPS = ("start", "advance")


@dataclass(frozen=True, slots=True)
class Watching:
    """The answer to ``/game watch``: ``new`` (watching now), ``again`` (already was),
    ``departed`` (their seat has departed: the gallery is theirs already)."""

    info: GameInfo
    status: Literal["new", "again", "departed"]


@dataclass(frozen=True, slots=True)
class Gallery:
    """A game's spectators: ``watching`` read the gallery now; ``seen`` (those and the
    ones who stopped after the start) stay muted in the game channel."""

    watching: frozenset[int] = frozenset()
    seen: frozenset[int] = frozenset()


async def _spectator(s: AsyncSession, game_id: int, user_id: int) -> Spectator | None:
    return await s.get(Spectator, (game_id, user_id))


async def watch_game(db: Database, game_id: int, user: UserRef, standing: Standing) -> Watching:
    """``user`` watches the game from its gallery, as a member who can see its channel
    (``standing``, the access policy's ``watch``). Refused to a practice game, to a living
    player of it, a lobby member, one on its standby list and one whose seat another now
    holds; a departed player is told the gallery is theirs already."""
    u = user.checked()
    async with table.at(db, Place(u, game_id=game_id, here=standing.of_user(u.id)), writing=True) as t:
        game, s, now = t.game, t.session, t.now
        if game.guild_id is None:
            raise GalleryPracticeError()
        policy.require(Action.WATCH, await t.standing(), game)
        if game.status not in LIVE:
            raise GameFinishedError(game_id=game.id)
        row = await t.member(u.id)
        if row is not None:
            if row.status == "lobby":
                raise WatchLobbyError(game_id=game.id)
            if row.seat is not None:
                if t.state.player(row.seat).alive:
                    raise WatchAliveError(game_id=game.id)
                return Watching(await t.info(), "departed")
            if row.status == "removed":
                return Watching(await t.info(), "departed")
            if row.former_seat is not None:
                raise WatchFormerSeatError(game_id=game.id, seat=row.former_seat)
        standby = await standbys_repo.standby_of(s, game.id, u.id)
        if standby is not None and standby.status in ("waiting", "asked"):
            raise WatchStandbyError(game_id=game.id)
        spectator = await _spectator(s, game.id, u.id)
        if spectator is not None and spectator.left_at is None:
            return Watching(await t.info(), "again")
        # their name, for the replay's predictions and the gallery's scores
        await repo.upsert_user(s, u.id, u.name, u.locale, now)
        if spectator is None:
            s.add(Spectator(game_id=game.id, user_id=u.id, joined_at=now))
        else:
            spectator.left_at = None
        await s.flush()
        return Watching(await t.info(), "new")


async def unwatch_game(db: Database, game_id: int, user_id: int) -> GameInfo:
    """``user_id`` stops watching. Before the start their row goes (they saw nothing of
    the game); after it, it stays, marked left: they stay muted in the game channel and
    may take no seat of it until the end."""
    check_id(user_id, "user")
    async with table.of(db, game_id, writing=True) as t:
        game, s = t.game, t.session
        spectator = await _spectator(s, game.id, user_id)
        if spectator is None or spectator.left_at is not None:
            raise NotWatchingError(game_id=game.id)
        if game.status == "lobby":
            await s.delete(spectator)
        else:
            spectator.left_at = t.now
        await s.flush()
        return await t.info()


async def gallery_of(db: Database, game_id: int) -> Gallery:
    """The spectators of ``game_id`` (see :class:`Gallery`); none before the start."""
    async with db.read() as s:
        game = await s.get(Game, check_id(game_id, "game"))
        if game is None or game.status == "lobby":
            return Gallery()
        rows = await gallery_repo.spectators(s, game_id)
        return Gallery(frozenset(r.user_id for r in rows if r.left_at is None), frozenset(r.user_id for r in rows))


async def refuse_watching_joiner(s: AsyncSession, game_id: int, user_id: int) -> None:
    """A lobby's join: refused to one who watches it (``/game unwatch`` first)."""
    spectator = await _spectator(s, game_id, user_id)
    if spectator is not None and spectator.left_at is None:
        raise JoinWhileWatchingError(game_id=game_id)


async def refuse_spectator_seat(s: AsyncSession, game: Game, user_id: int, *, name: str | None = None) -> None:
    """A seat (the standby list, an offer, a moderator's replacement): refused to one who
    watched the gallery of the started game (``name``: as a moderator named them), and to
    one who watches the lobby (who may unwatch first)."""
    spectator = await _spectator(s, game.id, user_id)
    if spectator is None:
        return
    if game.status == "lobby":
        raise JoinWhileWatchingError(game_id=game.id)
    if name is not None:
        raise NewcomerWatchedError(name=name, game_id=game.id)
    raise WatchedGameSeatError(game_id=game.id)


# --- the truth, as the setting allows ----------------------------------------------------


def _deal(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's class and faction, from a state as the log stores it."""
    return [{"seat": int(p["seat"]), "class_id": str(p["class_id"]), "faction": str(p["faction"])} for p in state.get("players") or []]


def truth_of(
    *, step: str, round_no: int, phase: str, events: list[dict[str, Any]], rolls: list[dict[str, Any]], state: dict[str, Any], late: bool
) -> GalleryTruth:
    """One logged step's truth (``events`` and ``rolls`` as the log stores them; ``state``
    after the step, whose deal a start shows)."""
    return GalleryTruth(
        step=step, round=round_no, phase=phase, events=tuple(engine.Event.from_dict(e) for e in events), rolls=list(rolls),
        deal=_deal(state) if step == "start" else None, late=late,
    )  # fmt: skip


def has_gallery(game: Game) -> bool:
    return game.guild_id is not None


@hooks.TOLD.listen(10)
async def step_told(step: Step) -> None:
    """(A step's news is written.) Its truth in the gallery (see :func:`mail_truth`)."""
    t = step.table
    await mail_truth(step.told(), t.game, step=step.kind, round_no=step.round_no, phase=step.phase, events=step.events, rolls=step.rolls, state=t.state)


async def mail_truth(
    mail: Mail, game: Game, *, step: str, round_no: int, phase: str, events: list[engine.Event], rolls: list[engine.Roll],
    state: engine.GameState,
) -> None:
    """In a step's own unit of work: its truth, in the gallery, if the game's setting is
    ``open``; with ``late``, the truth of the round before the one this step closes, if
    it closes one (its Morning). Nothing for ``chat`` or a practice game."""
    if not has_gallery(game) or step not in TRUTH_STEPS:
        return
    shown = settings_of(game).gallery
    if shown == "open":
        mail.gallery(truth_of(
            step=step, round_no=round_no, phase=phase, events=[e.to_dict() for e in events], rolls=[r.to_dict() for r in rolls],
            state=state.to_dict(), late=False,
        ))  # fmt: skip
    elif shown == "late" and step == "advance" and phase == "morning" and round_no >= 1:
        await mail_late_truth(mail, game, round_no - 1)


async def mail_late_truth(mail: Mail, game: Game, round_no: int) -> None:
    """The truth of every logged step of ``round_no`` (0: the start's deal), one post each."""
    for row in await gallery_repo.steps_of_round(mail.session, game.id, round_no, TRUTH_STEPS):
        mail.gallery(truth_of(
            step=row.kind, round_no=row.round, phase=row.phase, events=list(row.events), rolls=list(row.rolls),
            state=row.state, late=True,
        ))  # fmt: skip
