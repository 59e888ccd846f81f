"""The checks :mod:`tests.e2e.monkey` makes at the end: the moderator ends the game if
nobody did; the game-over post and ``/mod log`` agree with the stored state and the log
replays; the public channels leaked nothing; no message was sent twice; nobody was shown
a sheet not theirs; whoever left the server finds their voice on coming back. Mixed into
``Monkey``."""

from __future__ import annotations

import json
import re
from collections import Counter
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select

from bot.features.lobby.games import get_game
from bot.features.replay.verify import verify_log
from bot.i18n import terms
from bot.sandbox import play_reader as reader
from discord_emulator import Message
from tests.e2e.monkey_moves import Move
from tests.e2e.test_leaks import leaks

MENTION = re.compile(r"<@!?(\d+)>")


class EndChecks:
    """The game ended and everything about it checked; a breach goes to ``found``."""

    async def finish(self) -> dict[str, Any] | None:
        """End the game if it still runs, then check the end post, the log and the channels."""
        info = await get_game(self.tavern.db, self.game_id)
        mod = self.moderating
        if info.status in ("running", "paused"):
            confirm = await self.do(mod, Move("command", "mod end"))
            found = confirm.find(f"wh:end:{self.game_id}") if confirm else None
            assert found is not None, confirm.text if confirm else "no reply to /mod end"
            await self.do(mod, Move("click", found[1], message=found[0]))
        game = await self.stored_game()
        if game["status"] != "over":
            self.found("the end", f"the game is {game['status']} ({game['end_reason']}) after /mod end")
            return None
        self.check_end_post(game)
        log = await self.log()
        if log is None:
            self.found("the end", "/mod log gave no file")
        else:
            self.check_log(game, log)
        for channel in (self.channel, self.other_channel):
            self.check_public(channel, game)
        await self.check_sent_once()
        await self.check_sheets()
        # Whoever left the server comes back: they find the channel as everyone does.
        for a in self.actors:
            if a.person.user.id not in self.guild.members:
                self.live(a.person, "rejoin")
        await self.check_quiet_dead("the end, all back in the server", await get_game(self.tavern.db, self.game_id))
        return log

    async def check_sent_once(self) -> None:
        """Nobody got a message twice. A message of the outbox was not even sent twice: its
        nonce is its key's, and a crash must not make a new process send it again (it
        looks first). A notice outside the outbox (a moderator told that a player left the
        server) may be sent again by a new process, with the same nonce, which Discord
        (and the emulator) answer with the first message, creating none."""
        from bot.core.outbox import nonce_for
        from bot.db.models import OutboxMessage

        async with self.tavern.db.read() as s:
            keys = (await s.execute(select(OutboxMessage.idempotency_key))).scalars().all()
        outbox = {nonce_for(k) for k in keys}
        sends = Counter(
            r.json.get("nonce")
            for r in self.emu.ctx.recorder.requests
            if r.route == "POST /channels/{channel_id}/messages" and r.status == 200 and isinstance(r.json, dict) and r.json.get("nonce")
        )
        for nonce, count in sends.items():
            if count > 1 and nonce in outbox:
                self.found("the end", f"outbox message {nonce} was sent {count} times")
        made = Counter(m.nonce for m in self.emu.ctx.world.messages.values() if m.nonce and not m.deleted)
        for nonce, count in made.items():
            if count > 1:
                self.found("the end", f"message {nonce} is there {count} times")

    async def check_sheets(self) -> None:
        """Nobody was ever shown the sheet of a seat they did not hold (by DM, in /me or
        /inbox, before or after a replacement)."""
        from bot.db.models import Game, GamePlayer

        async with self.tavern.db.read() as s:
            states = {g.id: g.state for g in (await s.execute(select(Game))).scalars() if g.state}
            rows = (await s.execute(select(GamePlayer))).scalars().all()
            held: dict[int, set[tuple[str, str]]] = {}
            for r in rows:
                seat = r.seat if r.seat is not None else r.former_seat
                if seat is not None and r.game_id in states:
                    p = states[r.game_id]["players"][seat - 1]
                    held.setdefault(r.user_id, set()).add((p["class_id"], p["faction"]))
        for a in self.actors:
            user = a.person.user
            seen = self.emu.ctx.recorder.dms(user.id) + self.emu.ctx.recorder.visible_to(user.id)
            for m in seen:
                sheet = reader.read_sheet(m)
                if sheet and (sheet["class_id"], sheet["faction"]) not in held.get(user.id, set()):
                    self.found("the end", f"{a.person.name} was shown a sheet not theirs: {reader.message_text(m)[:160]}")

    async def stored_game(self) -> dict[str, Any]:
        from bot.db.models import Game

        async with self.tavern.db.read() as s:
            g = await s.get(Game, self.game_id)
            assert g is not None
            return {
                "status": g.status, "state": g.state, "round": g.round, "phase": g.phase,
                "seed": g.secret_seed, "sha": g.seed_sha256, "settings": g.settings, "end_reason": g.end_reason,
            }  # fmt: skip

    def end_posts(self) -> list[Message]:
        return [m for m in self.tavern.public(self.channel) if reader.is_game_over(m)]

    def check_end_post(self, game: dict[str, Any]) -> None:
        posts = self.end_posts()
        if len(posts) != 1:
            self.found("the end", f"{len(posts)} game-over posts")
            return
        post, state = posts[0], game["state"]
        if sorted(reader.winners(post)) != sorted(state["winners"]):
            self.found("the end", f"the post names {reader.winners(post)} as winners, the state {state['winners']}")
        scores = {}
        rows: dict[int, str] = {}
        for line in reader.lines_of(post):
            got = reader.match("post.score_line", line)
            if got:
                scores[reader.lookup("faction", got["faction"])] = int(got["score"])
            m = re.match(r"(\d+)\. (.+)$", line)
            if m:
                rows[int(m.group(1))] = m.group(2)
        if scores != state["scores"]:
            self.found("the end", f"the post shows scores {scores}, the state {state['scores']}")
        for p in state["players"]:
            row = rows.get(p["seat"], "")
            loc = game["settings"].get("language", "en-US")
            want = (terms.class_name(p["class_id"], loc), terms.faction(p["faction"], loc))
            dead = row.endswith(reader.text_of("post.roster_dead", loc).strip())
            if not all(w in row for w in want) or dead == p["alive"]:
                self.found("the end", f"roster line of seat {p['seat']} is {row!r}, the state {p['class_id']} {p['faction']} alive={p['alive']}")
        seed_shown = any(game["seed"] in reader.message_text(m) for m in self.tavern.public(self.channel))
        if not seed_shown:
            self.found("the end", "the seed was not revealed")

    async def log(self) -> dict[str, Any] | None:
        reply = await self.do(self.moderating, Move("command", "mod log", {"game": self.game_id}))
        for m in reply.messages if reply else []:
            for a in m.attachments:
                if a.filename.endswith(".json"):
                    return dict(json.loads(a.data))
        return None

    def check_log(self, game: dict[str, Any], log: dict[str, Any]) -> None:
        g = log["game"]
        for key in ("status", "round", "phase", "seed", "end_reason"):
            if g[key] != game[key]:
                self.found("the log", f"{key} is {g[key]!r} in the log, {game[key]!r} stored")
        if not log["steps"] or log["steps"][-1].get("state") != game["state"]:
            self.found("the log", "the last step's state is not the stored state")
        report = verify_log(log)
        if not report.ok:
            self.found("the log", f"the replay differs: {report.mismatch}")

    def check_public(self, channel: Any, game: dict[str, Any]) -> None:
        public = self.tavern.public(channel)
        reveal = channel is self.channel and bool(game["settings"].get("reveal_on_death"))
        for leak in leaks(SimpleNamespace(public=public, options=SimpleNamespace(reveal_on_death=reveal))):  # type: ignore[arg-type]
            self.found(f"#{channel.name}", f"leak: {leak}")
        people = {a.person.user.id for a in self.actors if a.kind != "moderator"}
        for m in public:
            if reader.is_game_over(m):
                break
            for line in reader.lines_of(m):
                named = {int(x) for x in MENTION.findall(line)} & people
                if named and not reader.match("reply.post.inbox_ping", line):
                    self.found(f"#{channel.name}", f"a public line addressed to someone: {line[:200]}")
            for e in m.embeds:
                if reader.news_title(str(e.get("title") or "")) or reader.read_sheet(m):
                    self.found(f"#{channel.name}", f"private news or a sheet in public: {reader.message_text(m)[:200]}")
