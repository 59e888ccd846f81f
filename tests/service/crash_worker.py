"""A worker process for the crash test: plays one game through the service to the end,
delivering the outbox to a file as it goes, and can be killed anywhere and restarted.

    python -m tests.service.crash_worker URL RECEIVED.jsonl RESTART [--kill-at-commit K]
        [--kill-at-begin K] [--kill-after-send K]

Everything it does is decided from the database, so a restarted worker carries on where
the killed one stopped. Game operations see a fixed clock (so deadlines, and the
messages that show them, are the same in every run); the dispatcher's clock moves an
hour on at each restart, so the leases of a killed dispatcher have expired.

The file receiver drops a message whose idempotency key it already has, as Discord does
with an enforced nonce; repeats are logged with ``"repeat": true``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, select

from bot import features
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.dispatch import Dispatcher
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameSettings, UserRef
from bot.core.views import player_view
from bot.db import repositories as repo
from bot.db.models import Game
from bot.db.session import Database
from bot.features.lobby.games import create_game, join_game, start_game
from bot.features.play.commands import SendSubmission, handle
from tests.service.helpers import choice, current_state, sees

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CHANNEL = 77_000
PLAYERS = 8
SEED = "crash-test-seed"


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class FileReceiver:
    """The far side of the Sender: an append-only file, deduplicated by key."""

    def __init__(self, path: Path, kill_after: int | None) -> None:
        self.path = path
        self.kill_after = kill_after
        self.sent = 0
        self.keys: set[str] = set()
        if path.exists():
            for line in path.read_text().splitlines():
                self.keys.add(json.loads(line)["key"])

    async def send(self, message: OutgoingMessage) -> None:
        repeat = message.key in self.keys
        line = {
            "key": message.key,
            "to": [message.recipient_kind, message.recipient_id],
            "payload": message.payload,
            "repeat": repeat,
        }
        with self.path.open("a") as f:
            f.write(json.dumps(line, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.keys.add(message.key)
        self.sent += 1
        if self.kill_after is not None and self.sent == self.kill_after:
            die()  # sent, but not yet marked delivered


def arm_kills(db: Database, at_commit: int | None, at_begin: int | None) -> None:
    counts = {"commit": 0, "begin": 0}

    def on(name: str, limit: int | None) -> None:
        if limit is None:
            return

        def hook(*_: Any) -> None:
            counts[name] += 1
            if counts[name] == limit:
                die()

        event.listen(db.engine.sync_engine, name, hook)

    on("commit", at_commit)  # before COMMIT reaches the database: the transaction is lost
    on("begin", at_begin)  # after the previous transaction committed


async def play(url: str, received: Path, restart: int, args: argparse.Namespace) -> None:
    db = Database(url, clock=lambda: T0)
    dispatch_db = Database(url, clock=lambda: T0 + timedelta(days=1, hours=restart))
    arm_kills(db, args.kill_at_commit, args.kill_at_begin)
    arm_kills(dispatch_db, args.kill_at_commit, args.kill_at_begin)
    dispatcher = Dispatcher(dispatch_db, FileReceiver(received, args.kill_after_send), batch=7)
    users = [UserRef(500 + i, f"Crash{i}") for i in range(1, PLAYERS + 1)]
    async with db.read() as s:
        game = await repo.live_game_in_channel(s, CHANNEL)
        game_id = game.id if game else None
        if game_id is None:
            game_id = await _finished_game(s)
    if game_id is None:
        settings = GameSettings.build(max_players=PLAYERS, early_advance=False)
        info = await create_game(
            db, guild_id=1, channel_id=CHANNEL, moderator=UserRef(1, "Mod"), settings=settings, seed=SEED
        )
        game_id = info.id
    for u in users:
        with contextlib.suppress(E.AlreadyInGameError, E.LobbyClosedError, E.LobbyFullError):
            await join_game(db, game_id, u, await sees(db, game_id, u))
    with contextlib.suppress(E.LobbyClosedError):
        await start_game(db, game_id)
    while True:
        await dispatcher.drain()
        state = await current_state(db, game_id)
        if state.over:
            break
        for seat in range(1, PLAYERS + 1):
            sub = choice(state, seat)
            if sub is None:
                continue
            uid = users[seat - 1].id
            if sub.kind not in (await player_view(db, uid, game_id)).sent:
                await handle(db, SendSubmission(sub), uid, game_id=game_id)
        with contextlib.suppress(E.AlreadyAdvancedError):
            await advance_phase(db, game_id, expected_round=state.round, expected_phase=state.phase.value)
    await dispatcher.drain()
    await db.dispose()
    await dispatch_db.dispose()


async def _finished_game(s: Any) -> int | None:
    return (await s.execute(select(Game.id).where(Game.channel_id == CHANNEL))).scalar_one_or_none()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("received", type=Path)
    p.add_argument("restart", type=int)
    p.add_argument("--kill-at-commit", type=int)
    p.add_argument("--kill-at-begin", type=int)
    p.add_argument("--kill-after-send", type=int)
    args = p.parse_args()
    features.load()
    asyncio.run(play(args.url, args.received, args.restart, args))


if __name__ == "__main__":
    main()
