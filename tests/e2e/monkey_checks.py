"""The invariants :mod:`tests.e2e.monkey` checks after every step: the answer (acknowledged,
final, private, a refusal changing nothing), the channel's latest phase post, the lobby
post's roster and its buttons, and who is muted or let into the dead channel. Mixed into
``Monkey``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.features.lobby.games import get_game, removed_players
from bot.i18n import LOCALES, t
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Reply
from discord_emulator import permissions as perm
from tests.e2e.test_bad_input import fingerprint


class StepChecks:
    """What must hold after every step; a breach goes to ``found``."""

    unreached: set[int]

    async def check_reply(self, where: str, reply: Reply, before: Any) -> None:
        res = reply.result
        assert res is not None
        if not res.acknowledged:
            self.found(where, "no answer (the interaction failed)")
        elif not res.is_final():
            self.found(where, "acknowledged, but left thinking")
        if res.rejected:
            self.found(where, f"the emulator refused the bot's answer: {res.rejected}")
        created = [*res.followups]
        if res.response_type in (4, 5) and res.message is not None:  # not the pressed message
            created.append(res.message)
        if res.record.guild is not None and any(not m.ephemeral for m in created):
            self.found(where, f"an answer shown to everyone: {reply.text[:160]!r}")
        if reader.is_error(res.message) or any(reader.is_error(m) for m in res.followups):
            self.refused += 1
            shown = [m for m in [res.message, *res.followups] if m is not None and reader.is_error(m)]
            if any(not m.ephemeral for m in shown):
                self.found(where, f"a refusal shown to everyone: {reply.text[:200]}")
            if any(reader.match("reply.error.unexpected", line) for m in shown for line in reader.lines_of(m)):
                self.found(where, f"an unexpected error: {reply.text[:200]}")
            after = await self.fingerprint()
            if before is not None and after != before:
                self.found(where, f"refused ({reply.text[:160]!r}) but changed the game: {diff(before, after)}")

    async def check_phase_post(self, where: str) -> None:
        """While the game runs, the channel's latest phase post is the stored phase; the
        departed (and only they) are muted there while the dead stay quiet."""
        info = await get_game(self.tavern.db, self.game_id)
        await self.check_quiet_dead(where, info)
        if info.status != "running":
            return
        posts = [got for m in self.tavern.public(self.channel) if (got := reader.phase_post(m))]
        if not posts or posts[-1] != (info.phase, info.round):
            self.found(where, f"the game is at {info.phase} {info.round}, the channel's last phase post says {posts[-1:]}")

    async def check_quiet_dead(self, where: str, info: Any) -> None:
        """Muted in the game channel and let into the dead channel: the departed while the
        game runs with quiet dead on, nobody otherwise."""
        world = self.emu.ctx.world
        quiet = any(
            c.topic and f"[wolfhowl:dead-of:{self.channel.id}]" in c.topic for c in world.channels.values()
        )
        muted = {
            ow.id for ow in self.channel.overwrites.values() if ow.type == 1 and ow.deny & perm.SEND_MESSAGES
        }
        dead_channels = [c for c in world.channels.values() if c.topic and f":{self.channel.id}]" in c.topic]
        let_in = {
            ow.id for c in dead_channels for ow in c.overwrites.values()
            if ow.type == 1 and ow.allow & perm.VIEW_CHANNEL and ow.id != self.emu.bot_user.id
        }  # fmt: skip
        want: set[int] = set()
        if quiet and info.status in ("running", "paused"):
            removed = set(await removed_players(self.tavern.db, self.game_id))
            want = {p.user_id for p in info.players if p.seat is not None and not p.alive and p.user_id} | removed
        # Whoever has left the server cannot be muted or freed meanwhile (no member).
        here = set(self.guild.members)
        # One who departed while away is not muted when they come back: the bot, without
        # the members intent, is not told they did (bot.discord.guild.quiet_return syncs
        # at their first message in the channel, or the next reconcile of the game).
        self.unreached = (self.unreached | (want - here)) & want
        muted, let_in, want = muted & here, let_in & here, want & here
        if self.unreached & here:
            muted, let_in, want = muted - self.unreached, let_in - self.unreached, want - self.unreached
        names = {a.person.user.id: a.person.name for a in self.actors}
        show = lambda ids: sorted(names.get(i, str(i)) for i in ids)  # noqa: E731
        state = f"(quiet dead {'on' if quiet else 'off'}, {info.status})"
        if muted != want:
            self.found(where, f"muted in the channel: {show(muted)}, departed: {show(want)} {state}")
        if let_in != want:
            self.found(where, f"let into the dead channel: {show(let_in)}, departed: {show(want)} {state}")
        if info.status == "lobby":
            self.check_lobby_roster(where, info)
        if info.status != "lobby":
            buttons = {cid for m in self.tavern.public(self.channel) for cid in m.custom_ids()}
            if f"wh:join:{self.game_id}" in buttons or f"wh:leave:{self.game_id}" in buttons:
                self.found(where, f"the lobby's buttons are still there ({info.status})")

    def check_lobby_roster(self, where: str, info: Any) -> None:
        """The lobby post lists who has joined (its players field counts them)."""
        posts = [m for m in self.tavern.public(self.channel) if f"wh:join:{self.game_id}" in m.custom_ids()]
        if not posts:
            return
        post = self.emu.ctx.world.messages.get(posts[-1].id, posts[-1])
        heads = {str(f.get("name", "")) for e in post.embeds for f in e.get("fields") or []}
        want = {t("reply.players", loc, count=len(info.players)) for loc in LOCALES}
        if not heads & want:
            self.found(where, f"the lobby post shows {sorted(heads)}, {len(info.players)} have joined")

    async def fingerprint(self) -> tuple[Any, ...]:
        """Both games as a refusal must leave them: rows, submissions, mail and seats."""
        from bot.db.models import GamePlayer

        out: list[Any] = []
        for gid in (self.game_id, self.other_id):
            if not gid:
                continue
            out.append(await fingerprint(self.tavern, gid))
            async with self.tavern.db.read() as s:
                rows = await s.execute(
                    select(GamePlayer.user_id, GamePlayer.seat, GamePlayer.status).where(GamePlayer.game_id == gid).order_by(GamePlayer.id)
                )
                out.append(tuple(tuple(r) for r in rows))
        return tuple(out)


def diff(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    out = []
    for i, (a, b) in enumerate(zip(before, after, strict=False)):
        if a != b:
            if isinstance(a, tuple) and isinstance(b, tuple):
                parts = [f"[{j}] {x!r:.120} -> {y!r:.120}" for j, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
                out.append(f"#{i}: " + "; ".join(parts))
            else:
                out.append(f"#{i}")
    return " | ".join(out)
