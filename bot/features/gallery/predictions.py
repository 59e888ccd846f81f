"""The gallery's predictions: each round, every spectator watching a game and every
departed player of it may forecast the winning faction, with the round's menu in the
gallery. One row per (game, round, user): the latest choice counts. A round's predictions
are open during its Day and its Dusk and close when its Dusk closes (the night resolves;
the Morning and later rounds refuse them). Predictions never reach the engine: nothing
of the game reads them.

Scoring, at the end of a game that has winners, is the Brier score. A pick is a forecast
of 1 for the chosen faction and 0 for the other two; the outcome is 1/k for each of the k
winning factions (a shared win) and 0 for the others. A round's score is
Σ_f (forecast_f − outcome_f)² over the three factions, from 0 (a sole winner named) to 2
(a sole winner missed); a forecaster's score for the game is the mean over the rounds
they predicted. Lower is better. It is computed when read, from the rows and the game's
final state, so it can never disagree with them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core import hooks, table
from bot.core.errors import GameFinishedError
from bot.core.hooks import Step
from bot.core.messages import PredictionScores, PredictionsOpened
from bot.core.outbox import Mail
from bot.core.rules import state_of
from bot.core.types import check_id
from bot.db import repositories as repo
from bot.db.models import Game, Prediction, Spectator
from bot.db.repos import gallery as gallery_repo
from bot.db.session import Database
from bot.features.gallery.errors import (
    GalleryPracticeError,
    PredictFactionError,
    PredictionsClosedError,
    PredictLivingError,
    PredictNotInGalleryError,
)
from engine.values import FACTIONS

FACTION_NAMES = tuple(f.value for f in FACTIONS)
# The phases of a round during which its predictions are open.
OPEN_PHASES = ("day", "dusk")


@dataclass(frozen=True, slots=True)
class Predicted:
    """A prediction stored: ``replaced`` the user's earlier pick for the round, if any."""

    game_id: int
    round: int
    faction: str
    replaced: str | None


@dataclass(frozen=True, slots=True)
class ForecastScore:
    """One forecaster's Brier score for one game (mean over ``rounds`` predicted rounds)."""

    user_id: int
    rounds: int
    brier: float


def brier(pick: str, winners: Iterable[str]) -> float:
    """The Brier score of one pick (a forecast of 1 for ``pick``, 0 for the others)
    against ``winners`` (each an outcome of 1/k, k the number of winners)."""
    won = set(winners)
    share = 1.0 / len(won) if won else 0.0
    return sum(((1.0 if f == pick else 0.0) - (share if f in won else 0.0)) ** 2 for f in FACTION_NAMES)


def scores_of(picks: Iterable[tuple[int, int, str]], winners: Sequence[str]) -> list[ForecastScore]:
    """Each forecaster's game score from ``(round, user_id, faction)`` picks, best
    (lowest) first, ties by user id; none when the game has no winners."""
    if not winners:
        return []
    per_user: dict[int, list[float]] = {}
    for _round, user_id, faction in picks:
        per_user.setdefault(user_id, []).append(brier(faction, winners))
    out = [ForecastScore(u, len(xs), sum(xs) / len(xs)) for u, xs in per_user.items()]
    return sorted(out, key=lambda x: (x.brier, x.user_id))


async def _in_gallery(s: AsyncSession, game: Game, user_id: int) -> None:
    """Refused unless ``user_id`` watches the game or has departed from it."""
    row = await repo.member(s, game.id, user_id)
    if row is not None:
        if row.seat is not None:
            if state_of(game).player(row.seat).alive:
                raise PredictLivingError(game_id=game.id)
            return
        if row.status == "removed":
            return
    spectator = await s.get(Spectator, (game.id, user_id))
    if spectator is None or spectator.left_at is not None:
        raise PredictNotInGalleryError(game_id=game.id)


async def predict(db: Database, game_id: int, user_id: int, faction: str, *, round_no: int | None = None) -> Predicted:
    """``user_id`` predicts ``faction`` wins, for round ``round_no`` (the round of the menu
    used; None: the current one). Refused to a living player, to one outside the gallery,
    and once the round's Dusk has closed (or the game has ended)."""
    check_id(user_id, "user")
    if faction not in FACTION_NAMES:
        raise PredictFactionError(faction=str(faction))
    async with table.of(db, game_id, writing=True) as t:
        game, s = t.game, t.session
        if game.guild_id is None:
            raise GalleryPracticeError()
        if game.status in ("over", "cancelled"):
            raise GameFinishedError(game_id=game.id)
        wanted = game.round if round_no is None else round_no
        if game.status not in ("running", "paused") or wanted != game.round or game.phase not in OPEN_PHASES:
            raise PredictionsClosedError(game_id=game.id, round=wanted)
        await _in_gallery(s, game, user_id)
        row = await s.get(Prediction, (game.id, wanted, user_id))
        replaced = None
        if row is None:
            s.add(Prediction(game_id=game.id, round=wanted, user_id=user_id, faction=faction, made_at=db.now()))
        else:
            replaced = row.faction
            row.faction, row.made_at = faction, db.now()
        await s.flush()
        return Predicted(game.id, wanted, faction, replaced)


async def predictions_of(db: Database, game_id: int) -> dict[int, dict[int, str]]:
    """Every stored prediction of a game: ``{round: {user_id: faction}}``."""
    async with db.read() as s:
        out: dict[int, dict[int, str]] = {}
        for round_no, user_id, faction in await gallery_repo.picks(s, check_id(game_id, "game")):
            out.setdefault(round_no, {})[user_id] = faction
        return out


async def game_scores(db: Database, game_id: int) -> list[ForecastScore]:
    """A finished game's forecasters with their scores (none while it is live, or when it
    ended with no winner)."""
    async with db.read() as s:
        game = await s.get(Game, check_id(game_id, "game"))
        if game is None or game.status != "over" or game.state is None:
            return []
        return scores_of(await gallery_repo.picks(s, game.id), state_of(game).winners)


@hooks.OPENED.listen(10)
async def round_opened(step: Step) -> None:
    """(A phase opened.) A Day's menu of predictions (see :func:`mail_round_open`)."""
    await mail_round_open(step.told(), step.table.game)


@hooks.TOLD.listen(30)
async def game_told(step: Step) -> None:
    """(The step that ends the game is told.) The forecasters' scores."""
    if step.over:
        await mail_scores(step.told(), step.table.state)


async def mail_round_open(mail: Mail, game: Game) -> None:
    """With a Day's opening post: the round's menu in the gallery, when the game channel
    has one (a dead's room recorded for it: quiet dead was switched on there); without
    it the post could never be delivered."""
    if game.guild_id is None or game.phase != "day":
        return
    room = await gallery_repo.dead_channel_of(mail.session, game.channel_id)
    if room is not None:
        mail.gallery(PredictionsOpened(round=game.round))


async def mail_scores(mail: Mail, state: engine.GameState) -> None:
    """In the step that ends the game: the scores, in the gallery, if anyone predicted."""
    if mail.game.guild_id is None or not state.winners:
        return
    scores = scores_of(await gallery_repo.picks(mail.session, mail.game.id), state.winners)
    if scores:
        rows = [{"user": x.user_id, "rounds": x.rounds, "brier": round(x.brier, 4)} for x in scores]
        mail.gallery(PredictionScores(winners=list(state.winners), scores=rows))


async def forecasters(s: AsyncSession, guild_id: int, min_games: int) -> list[tuple[int, str | None, int, float]]:
    """A server's forecasters with at least ``min_games`` scored games (finished, with
    winners, at least one round predicted): ``(user_id, name, games, mean Brier)``, best
    (lowest) first, then the most games, then the user id. Hidden profiles are left out."""

    games = {int(gid): list((state or {}).get("winners") or []) for gid, state in await gallery_repo.predicted_games_over(s, guild_id)}
    picks: dict[int, list[tuple[int, int, str]]] = {}
    if games:
        for gid, round_no, user_id, faction in await gallery_repo.picks_of_games(s, games):
            picks.setdefault(int(gid), []).append((int(round_no), int(user_id), str(faction)))
    per_user: dict[int, list[float]] = {}
    for gid, winners in games.items():
        for x in scores_of(picks.get(gid, []), winners):
            per_user.setdefault(x.user_id, []).append(x.brier)
    ranked = {u: xs for u, xs in per_user.items() if len(xs) >= min_games}
    if not ranked:
        return []
    hidden = await repo.hidden_users(s, ranked)
    names = await repo.display_names(s, ranked)
    rows = [(u, names.get(u), len(xs), sum(xs) / len(xs)) for u, xs in ranked.items() if u not in hidden]
    return sorted(rows, key=lambda r: (r[3], -r[2], r[0]))
