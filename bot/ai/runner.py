"""Playing games between baseline AI players through the public engine API.

The runner is the DM's side of the table: it holds the ``GameState``, asks each living
seat's AI for its submissions, closes the phase with ``engine.advance`` and hands every
player exactly what it may see (:func:`observe`). It also reads the audit events to
count kills, steals and refused submissions for the report.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.knowledge import Knowledge
from bot.ai.player import BaselineAI
from engine import Audience, Event, GameState, Phase, Settings, Submission, advance, new_game
from engine.view import sheet, table

# Enum members looked up once: attribute access on an Enum class is slow in the hot loop.
PRIVATE = Audience.PRIVATE
PUBLIC = Audience.PUBLIC
DAY = Phase.DAY
DUSK = Phase.DUSK


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, reduced to what the report needs (small and picklable)."""

    seed: str
    rounds: int
    winners: tuple[str, ...]
    end_reason: str
    scores: tuple[tuple[str, int], ...]
    roles: tuple[tuple[str, str], ...]  # (faction, class_id) per seat, seat 1 first
    survived: tuple[bool, ...]
    kills: tuple[int, ...]  # enemies killed, per seat
    teamkills: tuple[int, ...]
    grails: tuple[int, ...]  # grails banked, per seat
    steals: tuple[int, ...]
    dropped: int  # submissions the engine refused (the AI must send none)


def game_seed(master: str, index: int) -> str:
    """The seed of game ``index`` of a run seeded ``master``."""
    return f"{master}:{index}"


def ai_rng(seed: str, seat: int) -> random.Random:
    """The AI's own random stream for one seat of one game, derived from the game seed."""
    digest = hashlib.sha256(f"{seed}|ai|{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def visible(event: Event, seat: int) -> bool:
    """The events a seat may see: public ones and its own private ones."""
    return event.audience is PUBLIC or (event.audience is PRIVATE and event.seat == seat)


def observe(k: Knowledge, state: GameState, events: Sequence[Event], with_sheet: bool) -> None:
    """Hand one player what it may know after a phase: the public table, the events it
    may see and (``with_sheet``) its own sheet. The only place where the AI's knowledge
    touches the game state."""
    k.update_table(table(state))
    for e in events:
        if visible(e, k.seat):
            k.see(e)
    k.set_phase(state.round, state.phase.value)
    if with_sheet:
        k.update_sheet(sheet(state, k.seat))


def ask(ai: BaselineAI, k: Knowledge, phase: Phase) -> list[Submission]:
    """The AI's submissions for ``phase``."""
    if phase is DAY:
        return [ai.grail_number(k)]
    if phase is DUSK:
        subs = ai.dusk(k)
        k.note_sent(subs)
        return subs
    vote = ai.vote(k)
    return [vote] if vote is not None else []


def play_game(
    seed: str,
    players: int = 15,
    start: GameState | None = None,
    record: list[dict[int, list[Submission]]] | None = None,
    steps: list[list[Event]] | None = None,
) -> GameResult:
    """Play one whole game between baseline AIs and summarise it. ``start`` replaces the
    dealt table with a given one (tests); it is played in place. ``record`` collects
    every phase's submissions (to replay the game through the engine alone), ``steps``
    every phase's events (all audiences, in the engine's order)."""
    state = start if start is not None else new_game([f"P{i}" for i in range(1, players + 1)], seed)
    players = len(state.players)
    seats = range(1, players + 1)
    public_table = table(state)
    know = [Knowledge(sheet(state, s), public_table) for s in seats]
    ais = [BaselineAI(ai_rng(seed, s), players) for s in seats]
    kills = [0] * (players + 1)
    teamkills = [0] * (players + 1)
    steals = [0] * (players + 1)
    dropped = 0
    while not state.over:
        phase = state.phase
        subs: dict[int, list[Submission]] = {}
        dusk = phase is DUSK
        for k, ai in zip(know, ais, strict=True):
            if not k.alive[k.seat]:
                continue
            if dusk and k.hp > 0:
                k.update_sheet(sheet(state, k.seat))
            subs[k.seat] = ask(ai, k, phase)
        if record is not None:
            record.append(subs)
        events = advance(state, subs, seed, inplace=True).events
        if steps is not None:
            steps.append(list(events))
        left = False
        for e in events:
            aud = e.audience
            if aud is PRIVATE:
                know[e.seat - 1].see(e)  # type: ignore[operator]
            elif aud is PUBLIC:
                left = left or e.kind == "PlayerLeft"
                for k in know:
                    k.see(e)
            else:
                kind = e.kind
                if kind == "PlayerDied":
                    src = e.data.get("source")
                    if src is not None and src != e.data["seat"]:
                        killer = state.player(src)
                        if killer.faction is state.player(e.data["seat"]).faction:
                            teamkills[src] += 1
                        else:
                            kills[src] += 1
                elif kind == "StealRolled":
                    if e.data["success"]:
                        steals[e.data["thief"]] += 1
                elif kind == "SubmissionDropped":
                    dropped += 1
        if left:
            public_table = table(state)
        round_no, phase_name = state.round, state.phase.value
        for k in know:
            if left:
                k.update_table(public_table)
            k.set_phase(round_no, phase_name)
    return GameResult(
        seed=seed,
        rounds=state.round,
        winners=tuple(state.winners),
        end_reason=state.end_reason or "",
        scores=tuple(sorted(state.scores.items())),
        roles=tuple((p.faction.value, p.class_id) for p in state.players),
        survived=tuple(p.alive for p in state.players),
        kills=tuple(kills[1:]),
        teamkills=tuple(teamkills[1:]),
        grails=tuple(p.grails_banked for p in state.players),
        steals=tuple(steals[1:]),
        dropped=dropped,
    )


def _play_one(seed: str, players: int, rules: dict[str, Any]) -> GameResult:
    names = [f"P{i}" for i in range(1, players + 1)]
    return play_game(seed, players, start=new_game(names, seed, Settings.from_dict(rules)))


def _play_chunk(job: tuple[str, int, int, int, dict[str, Any]]) -> list[GameResult]:
    master, start, count, players, rules = job
    return [_play_one(game_seed(master, i), players, rules) for i in range(start, start + count)]


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(size, games - start)


def play_many(
    games: int,
    players: int = 15,
    seed: str = "0",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    settings: Settings | None = None,
) -> list[GameResult]:
    """Play ``games`` games (game i seeded ``game_seed(seed, i)``), on ``jobs`` processes.
    The results come back in game order, so the report does not depend on ``jobs``.
    ``progress`` is called with the number of games just finished. ``settings``: the
    games' rules settings (house rules), the engine's defaults when None."""
    return play_batches([Batch(games, players, seed, settings)], jobs, progress)[0]


@dataclass(frozen=True)
class Batch:
    """Games to play: ``games`` games of ``players`` seeded from ``seed``, under
    ``settings`` (the engine's defaults when None)."""

    games: int
    players: int
    seed: str
    settings: Settings | None = None


def play_batches(batches: Sequence[Batch], jobs: int = 1, progress: Callable[[int], None] | None = None) -> list[list[GameResult]]:
    """:func:`play_many` for each batch, on one set of ``jobs`` processes for them all (a
    search plays many small batches: a pool each would cost more than their games)."""
    work = []
    for b, batch in enumerate(batches):
        rules = (batch.settings or Settings()).to_dict()
        size = max(1, min(250, batch.games // (max(jobs, 1) * 8) or 1))
        work += [(b, (batch.seed, start, count, batch.players, rules)) for start, count in _chunks(batch.games, size)]
    results: list[list[GameResult]] = [[] for _ in batches]
    if jobs <= 1 or sum(b.games for b in batches) < 2:
        done: Iterator[list[GameResult]] = (_play_chunk(job) for _, job in work)
        for (b, _), chunk in zip(work, done, strict=True):
            results[b].extend(chunk)
            if progress is not None:
                progress(len(chunk))
        return results
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ctx.Pool(jobs) as pool:
        for (b, _), chunk in zip(work, pool.imap(_play_chunk, [job for _, job in work]), strict=True):
            results[b].extend(chunk)
            if progress is not None:
                progress(len(chunk))
    return results
