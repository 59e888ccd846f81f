"""End-to-end: the real bot on the local Discord emulator, played by scripted people.

A game is played inside ``asyncio.run`` by a module-scoped fixture and handed to the
tests as a :class:`Played` record (what the channel, each player's DMs and inbox showed,
the requests the bot made, what the people measured), so several tests can look at one
game without replaying it. PostgreSQL games run on a scratch database created for the
session and dropped at its end (skipped, with the reason printed, if no server answers).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Stats
from bot.sandbox.play_game import GameOptions, GameReport, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import Message, User


@dataclass
class Seat:
    user: User
    name: str
    seat: int | None
    dms: list[Message]
    inbox_replies: list[Message]
    journal: list[str]
    class_id: str | None


@dataclass
class Played:
    """One finished table, as the people there saw it (plus the emulator's god view)."""

    report: GameReport
    options: GameOptions
    public: list[Message]
    seats: list[Seat]
    stats: Stats
    server_errors: list[BaseException]
    sends: list[dict[str, Any]]  # every message-create request the bot made: nonce, status
    channel_id: int
    game_id: int | None
    extra: dict[str, Any] = field(default_factory=dict)

    def public_texts(self) -> list[str]:
        return [reader.message_text(m) for m in self.public]

    def seat(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)


def snapshot(tavern: Tavern, game: TableGame) -> Played:
    """Everything a test may want about ``game``, copied out of the running world."""
    seats = []
    for p in game.players:
        inbox = list(p.inbox_messages)
        seats.append(
            Seat(
                p.user,
                p.name,
                p.seat,
                list(tavern.dms(p.user)),
                inbox,
                list(p.journal),
                p.sheet["class_id"] if p.sheet else None,
            )
        )
    sends = []
    for r in tavern.emu.requests:
        if r.method == "POST" and r.route == "POST /channels/{channel_id}/messages":
            body = r.json if isinstance(r.json, dict) else {}
            sends.append(
                {
                    "channel": r.params.get("channel_id"),
                    "nonce": body.get("nonce"),
                    "status": r.status,
                }
            )
    return Played(
        report=game_report(game),
        options=game.options,
        public=list(tavern.public(game.seating.channel)),
        seats=seats,
        stats=game.stats,
        server_errors=list(tavern.emu.server_errors),
        sends=sends,
        channel_id=game.seating.channel.id,
        game_id=game.game_id,
    )


def game_report(game: TableGame) -> GameReport:
    return game.__dict__.get("_report") or GameReport(game.game_id, [], game.round, 0, 0.0, False)


async def play_tables(
    count: int = 1,
    *,
    players: int = 7,
    seed: str = "e2e",
    options: list[GameOptions] | GameOptions | None = None,
    closed_dms: tuple[int, ...] = (4,),
    database_url: str | None = None,
    tavern_options: dict[str, Any] | None = None,
    during: Callable[[Tavern, list[TableGame]], Awaitable[None]] | None = None,
) -> list[Played]:
    """Play ``count`` games at once, one per channel, with one bot."""
    opts = options if isinstance(options, list) else [options or GameOptions()] * count
    async with Tavern(
        database_url=database_url, clock=GameClock(1.0), seed=seed, **(tavern_options or {})
    ) as tavern:
        games = []
        for i in range(count):
            spec = TableSpec(
                players=players, closed_dms=closed_dms, name_prefix=f"t{i}-" if count > 1 else ""
            )
            seating = tavern.seat_table(spec, f"tavern-{i}")
            games.append(TableGame(tavern, seating, opts[i], seed=f"{seed}-{i}"))

        for g in games:  # one after the other: game n gets the n-th seed of the run
            await g.open()

        async def one(g: TableGame) -> None:
            g.__dict__["_report"] = await g.play()

        jobs = [one(g) for g in games]
        if during is not None:
            jobs.append(during(tavern, games))
        await asyncio.gather(*jobs)
        await tavern.drained()
        out = []
        for g in games:
            played = snapshot(tavern, g)
            played.extra["log"] = await game_log(g)
            out.append(played)
        return out


async def game_log(game: TableGame) -> dict[str, Any] | None:
    """The moderator's ``/mod log`` file, as downloaded from the reply."""
    import json

    reply = await game.moderator.command("mod log")
    for m in reply.messages:
        for a in m.attachments:
            if a.filename.endswith(".json"):
                return json.loads(a.data)
    return None


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(coro)  # type: ignore[arg-type]


# -- PostgreSQL --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def e2e_pg_url() -> Iterator[str]:
    """A scratch PostgreSQL database for each test module (the bot migrates it at
    start): a module reads its own games' rows only, whichever modules ran before it on
    the same worker."""
    from tests.conftest import drop_pg_database, scratch_pg_database

    admin, url = scratch_pg_database()
    try:
        yield url
    finally:
        with contextlib.suppress(Exception):
            drop_pg_database(admin, url)


# -- reading helpers ---------------------------------------------------------------------
def error_text(reply_messages: list[Message]) -> str:
    """The refusal a person saw (without the ⚠️)."""
    for m in reply_messages:
        for e in m.embeds:
            d = str(e.get("description") or "")
            if d.startswith("⚠️"):
                return d.removeprefix("⚠️").strip()
    return ""


def is_localized(text: str, key: str, locale: str) -> bool:
    """``text`` is the catalogue message ``key`` in ``locale`` (and not in the other)."""
    other = "en-US" if locale == "zh-CN" else "zh-CN"
    ok = bool(reader.pattern(key, locale).fullmatch(text))
    if not ok:
        return False
    plain = re.sub(r"\{\w+\}", "", reader.text_of(key, other)).strip()
    return plain == "" or plain not in text
