"""A randomized "monkey" at the tavern: the real bot on the local Discord emulator, a
table of 6–9 people (some reading zh-CN, some with closed DMs), its moderator, a stranger
and a player of another game, who for a few hundred steps each do something at random
that a Discord user can do (:mod:`tests.e2e.monkey_moves`). After every step the
invariants a scripted test would check one by one are checked all at once:

- the interaction was answered (acknowledged, and a final reply shown: nothing left
  "thinking"), the emulator refused none of the bot's requests and did not crash, and
  the bot logged no error;
- a refusal is ephemeral and changed nothing (the games' rows, submissions, mail and
  seats are compared before and after), and no answer is shown to everyone;
- the channel's latest phase post is the stored phase, the lobby's buttons are gone
  once it has started, and the departed (only they) are muted in the channel and let
  into the dead channel while the dead stay quiet (nobody once the game is over).

And at the end: the moderator ends the game if nobody did; the public channels never
named a class, faction, roll or score before the game-over post, nor carried anything
addressed to one player but the content-free inbox ping; nobody was shown the sheet of
a seat they never held; the game-over post and the moderator's ``/mod log`` agree
with the stored state; the log replays exactly; whoever left the server and comes
back finds their voice.

With ``chaos`` the bot's life is shaken too, now and then before a step: it is restarted
(a deploy), or killed while the step's news is being delivered (then started again on
the same database, which takes over the dead process's leases at once: no clock is
skipped for them), or time jumps to the next deadline or reminder. Half the crashes
come in the middle of a moderator's command (pause, resume, extend, settings, replace,
kick, end: ``CHAOS_MODERATION``), and the first step after a restart or a crash is often
a click on a component drawn before it. Then also: whatever a crash found stored is
still there after it, Discord's side (mutes, the dead channel, the lobby post's roster)
is what the state says at every step, and no message was sent twice (Discord nonces).

Everything random comes from ``random.Random(seed)`` (the upheavals from a stream of
their own, so a seed's moves are the same with and without them); the bot's secret game
seeds are derived from the seed too; the game's clock stands still unless skipped, and
after every step the outbox is delivered and nothing is left due, so a seed replays the
same game (a finding names the seed, the step and the move)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select

import bot.service as service
import engine
import engine.view
from bot.i18n import LOCALES, t, terms
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Moderator, Person, Reply, Stats
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import _text_input_id
from bot.service.verify import verify_log
from discord_emulator import InvalidInvocation, Message
from discord_emulator import permissions as perm
from tests.e2e.monkey_moves import (
    CHAOS_MODERATION,
    FORM_TEXTS,
    MODERATOR_COMMANDS,
    PLAYER_COMMANDS,
    Chooser,
    Move,
    components,
    is_select,
    menu_values,
)
from tests.e2e.test_bad_input import fingerprint
from tests.e2e.test_leaks import leaks

SLOW = GameOptions(day="1h", dusk="1h", morning="1h")
# Answers a bot's request may get without anything being wrong: a DM to someone whose DMs
# are closed (the bot then keeps it for /inbox), a look-up of someone who has left the
# server (the bot asks to know), and a rate limit (discord.py waits).
EXPECTED_STATUSES = {(403, 50007), (404, 10007), (429, None)}
MENTION = re.compile(r"<@!?(\d+)>")


class LogTrap(logging.Handler):
    """Every record of WARNING or worse, from anywhere in the process."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Actor:
    person: Person
    kind: str  # "player", "moderator", "stranger", "other"
    forms: list[Reply] = field(default_factory=list)  # grail forms opened and not sent yet


@dataclass
class Outcome:
    seed: int
    findings: list[str]
    steps: int
    refused: int  # the bot refused (an error reply)
    client_refused: int  # the Discord client would not have sent it
    over: bool
    end_reason: str | None
    rounds: int
    seconds: float
    by_kind: dict[str, int]
    warnings: list[str]
    trace: list[str] = field(default_factory=list)  # each step and its answer (with ``trace``)
    chaos: bool = False
    upheavals: dict[str, int] = field(default_factory=dict)  # restarts, crashes, time skips (with ``chaos``)


class Monkey:
    """The table, the people and their moves; ``findings`` collects what broke."""

    def __init__(self, tavern: Tavern, seed: int, trap: LogTrap, steps: int, *, chaos: bool = False) -> None:
        self.tavern = tavern
        self.emu = tavern.emu
        self.seed = seed
        self.rng = random.Random(seed)
        self.trap = trap
        self.stats = Stats()
        self.findings: list[str] = []
        self.refused = 0
        self.client_refused = 0
        self.step_no = 0
        self.game_id = 0
        self.other_id = 0
        self.trace: list[str] | None = None  # each step and the gist of its answer
        self.end_after = int(steps * 0.85)  # the confirmation of /mod end is pressed only then
        self.chaos = random.Random(f"chaos-{seed}") if chaos else None
        self.upheavals: Counter[str] = Counter()
        self.kinds_due = ["restart", "crash", "crash", "crash", "time"]
        if self.chaos is not None:
            self.chaos.shuffle(self.kinds_due)
        # The components people could see just before the last restart or crash.
        self.before_restart: dict[int, list[tuple[Message, dict[str, Any]]]] = {}

    # -- the table -------------------------------------------------------------------
    async def setup(self) -> None:
        rng, tavern = self.rng, self.tavern
        assert tavern.guild is not None
        n = rng.randint(6, 9)
        spec = TableSpec(players=n, zh_every=rng.choice((2, 3)), closed_dms=rng.sample(range(n), rng.randint(1, 2)))
        self.seating = tavern.seat_table(spec)
        self.channel = self.seating.channel
        self.guild = tavern.guild
        other = TableGame(
            tavern, tavern.seat_table(TableSpec(players=6, name_prefix="o-"), "tavern-b"), SLOW, seed=f"monkey-{self.seed}-b"
        )
        await other.open()
        assert other.game_id is not None
        self.other_id = other.game_id
        self.other_channel = other.seating.channel
        stranger = self.emu.create_user("mallory", locale=rng.choice(LOCALES))
        self.emu.add_member(tavern.guild, stranger)
        self.mod = Moderator(tavern, self.seating.moderator, self.channel, self.stats)
        self.players = [Actor(self.person(u), "player") for u in self.seating.players]
        self.moderating = Actor(self.mod, "moderator")
        self.actors = [
            *self.players,
            self.moderating,
            Actor(self.person(stranger), "stranger"),
            Actor(self.person(other.players[0].user), "other"),
        ]
        created = await self.mod.create(
            day="1h", dusk="1h", morning="1h", reminder=rng.choice(("0", "30m")),
            language=rng.choice(LOCALES), vote_tie=rng.choice(("roll", "nobody", "all")),
            reveal_on_death=rng.random() < 0.4, early_advance=rng.random() < 0.3,
            win_score=rng.choice((4, 6, 10, 15)), quiet_dead=rng.random() < 0.5,
        )  # fmt: skip
        assert not created.error and self.mod.game_id is not None, created.text
        self.game_id = self.mod.game_id
        people = [a.person.user for a in self.actors]
        self.choose = Chooser(rng, n, people, self.emu.bot_user, [self.game_id, self.other_id])
        # The chaos's own moves draw from its own stream (a seed's other moves stay the same).
        self.chaos_choose = Chooser(self.chaos, n, people, self.emu.bot_user, [self.game_id, self.other_id]) if self.chaos else None
        await tavern.drained()

    def person(self, user: Any) -> Person:
        return Person(self.tavern, user, self.channel, self.stats, in_dm=False)

    async def lobby(self, steps: int) -> None:
        """Everyone joins (by the button or the command), a few random steps, then the
        moderator makes sure all are in and starts."""
        for a in self.players:
            await self.do(a, self.join_move(a))
        for _ in range(steps):
            await self.step()
        info = await service.get_game(self.tavern.db, self.game_id)
        if info.status == "lobby":
            joined = {p.user_id for p in info.players}
            for a in self.players:
                if a.person.user.id not in joined:
                    await self.do(a, self.join_move(a))
            await self.do(self.moderating, Move("command", "mod start"))
        info = await service.get_game(self.tavern.db, self.game_id)
        assert info.status == "running", f"the game did not start: {info.status}"
        self.choose.seats = len([p for p in info.players if p.seat is not None])

    def join_move(self, a: Actor) -> Move:
        lobby = [m for m in self.tavern.public(self.channel) if f"wh:join:{self.game_id}" in m.custom_ids()]
        if lobby and self.rng.random() < 0.5:
            return Move("click", f"wh:join:{self.game_id}", message=lobby[-1])
        return Move("command", "game join")

    # -- one step ----------------------------------------------------------------------
    async def step(self) -> None:
        self.step_no += 1
        upheaval = None
        if self.chaos is not None and self.chaos.random() < 0.06:
            # Each kind at least once (crashes three times) before chance decides, so a
            # run that ends early has still shaken the bot in every way.
            upheaval = self.kinds_due.pop() if self.kinds_due else self.chaos.choice(("restart", "crash", "crash", "time"))
            self.upheavals[upheaval] += 1
            if upheaval == "restart":
                self.remember_components()
                await self.tavern.restart_bot()
                await self.settled(f"step {self.step_no}, after a restart")
            elif upheaval == "time":
                await self.time_passes()
        weights = [5 if a.kind == "player" else {"moderator": 14, "stranger": 2, "other": 2}[a.kind] for a in self.actors]
        actor = self.rng.choices(self.actors, weights=weights)[0]
        move = None
        if actor.kind == "moderator" and self.rng.random() < 0.5:
            info = await service.get_game(self.tavern.db, self.game_id)
            if info.status == "paused":  # a moderator who paused resumes soon after
                move = Move("command", "mod resume")
        move = move or await self.pick_move(actor)
        if move.kind in ("click", "select", "command") and self.rng.random() < 0.05:
            move.twice = True  # a double click, or a command sent again before the answer
        actor, move = self.chaos_move(actor, move, upheaval)
        reply = await self.do(actor, move, crash=upheaval == "crash")
        found = reply.find(move.then) if reply is not None and move.then else None
        if found is not None:
            await self.do(actor, Move("click", found[1], message=found[0]))

    def chaos_move(self, actor: Actor, move: Move, upheaval: str | None) -> tuple[Actor, Move]:
        """With chaos: half the crashes hit a moderator's command, and after a restart or a
        crash someone often presses what they were shown before it (drawn from the chaos's
        own stream, after the seed's move, so that the seed's moves stay the same)."""
        if self.chaos is None or self.chaos_choose is None:
            return actor, move
        if upheaval == "crash" and self.chaos.random() < 0.5:
            path = self.chaos_choose.pick(CHAOS_MODERATION)
            return self.moderating, Move("command", path, self.chaos_choose.options(path))
        if self.before_restart and self.chaos.random() < 0.6:
            who = self.chaos.choice(sorted(self.before_restart))
            seen = self.before_restart.pop(who)
            a = next(x for x in self.actors if x.person.user.id == who)
            if seen:
                m, c = self.chaos.choice(seen)
                if is_select(c):
                    return a, Move("select", c["custom_id"], message=m, values=menu_values(self.chaos, c))
                return a, Move("click", c["custom_id"], message=m)
        return actor, move

    def remember_components(self) -> None:
        """What each player could press just before the bot went down (for after it)."""
        self.before_restart = {a.person.user.id: self.seen_components(a, late=False) for a in self.actors if a.kind == "player"}

    async def pick_move(self, a: Actor) -> Move:
        rng = self.rng
        r = rng.random()
        if a.forms and r < 0.3:
            form = a.forms.pop(rng.randrange(len(a.forms)))
            return Move("form", "modal", form=form, values=[rng.choice(FORM_TEXTS)])
        if r < 0.3:
            seen = self.seen_components(a)
            if seen:
                # Mostly the latest of each kind of component, sometimes anything seen since
                # the start (an old panel, a closed phase's menu).
                latest = list({c["custom_id"]: (m, c) for m, c in seen}.values())
                m, c = rng.choice(latest if rng.random() < 0.7 else seen)
                if is_select(c):
                    return Move("select", c["custom_id"], message=m, values=menu_values(rng, c))
                return Move("click", c["custom_id"], message=m)
        if r < 0.33 and a.kind != "moderator":
            # Life outside the bot: DMs opened or closed, the client's language switched,
            # the server left (and joined again).
            away = a.person.user.id not in self.guild.members
            return Move("life", "rejoin" if away else rng.choice(("dms", "language", "language", "leave")))
        if r < 0.35:
            path = rng.choice(("act attack", "vote", "identify", "act skill"))
            focused = "skill" if path == "act skill" else "player"
            return Move("complete", path, options={focused: rng.choice(("", "1", "a", "阿", "#"))})
        mod_first = a.kind == "moderator" or rng.random() < 0.1
        path = self.choose.pick(MODERATOR_COMMANDS if mod_first and rng.random() < 0.9 else PLAYER_COMMANDS)
        # The moderator moderates both games (Manage Server): in a DM the bot asks which.
        in_dm = not a.person.user.dms_closed and path not in ("mod create", "game join") and rng.random() < (0.08 if a.kind == "moderator" else 0.35)
        if path == "mod create" and rng.random() < 0.5:
            in_dm = not a.person.user.dms_closed  # or in the other game's channel
        if path in MODERATOR_COMMANDS and a.kind != "moderator" and not a.person.user.dms_closed:
            in_dm = True  # Discord lists /mod to them only there (no Manage Server)
        if path == "grail" and rng.random() < 0.4:
            return Move("command", "orders", in_dm=in_dm, then="wh:grail:")  # the form, by the panel
        options = self.choose.options(path)
        if path in ("act skill", "identify") and rng.random() < 0.5:
            # Half the time what the player's own sheet allows (the game must go on).
            sheet = await self.sheet_of(a.person.user.id)
            if sheet is not None:
                options = self.choose.from_sheet(path, sheet, a.person.locale) or options
        return Move("command", path, options, in_dm=in_dm)

    async def sheet_of(self, user_id: int) -> dict[str, Any] | None:
        """God's view of a seat's sheet, to play sometimes as the player would."""
        from bot.db.models import Game, GamePlayer

        async with self.tavern.db.read() as s:
            game = await s.get(Game, self.game_id)
            seat = (
                await s.execute(
                    select(GamePlayer.seat).where(GamePlayer.game_id == self.game_id, GamePlayer.user_id == user_id)
                )
            ).scalar()
            if game is None or game.state is None or seat is None:
                return None
            return engine.view.sheet(engine.GameState.from_dict(game.state), seat)

    def seen_components(self, a: Actor, *, late: bool = True) -> list[tuple[Message, dict[str, Any]]]:
        """The components on what ``a`` can see: the channels, their DMs, their ephemerals
        (``late``: sometimes the other game's channel too). The moderator's confirmation
        of /mod end is pressed only late in the run."""
        user = a.person.user
        msgs = list(self.tavern.public(self.channel))
        if a.kind == "other" or (late and self.rng.random() < 0.1):
            msgs += self.tavern.public(self.other_channel)
        msgs += self.emu.ctx.recorder.dms(user.id) + self.emu.ctx.recorder.visible_to(user.id)
        msgs.sort(key=lambda m: m.id)
        found = components([self.emu.ctx.world.messages.get(m.id, m) for m in msgs])
        if self.step_no < self.end_after:
            found = [(m, c) for m, c in found if not c["custom_id"].startswith(("wh:end:", "wh:cancel:"))]
        return found

    async def time_passes(self) -> None:
        """The game's clock jumps just past the next deadline or reminder."""
        from bot.service.deadlines import next_wakeup

        due = await next_wakeup(self.tavern.db)
        clock = self.tavern.clock
        if due is not None and isinstance(clock, GameClock):
            clock.skip(max(0.0, (due - clock()).total_seconds()) + 1)
            await self.settled(f"step {self.step_no}, the clock skipped to {due:%H:%M:%S}")

    async def crash(self, where: str) -> None:
        """Kill the bot while the step's news is being delivered and start a new one on the
        same database: what was stored is still there (every submission as it was, unless
        the game moved on meanwhile: a phase the dead process was closing is closed by the
        new one; every message), and the messages the dead one held go out once its
        leases are taken over by the new one, at once (the game's clock stands still)."""
        kept = await self.stored_rows()
        self.remember_components()
        await self.tavern.stop_bot(crash=True)
        await self.tavern.start_bot()
        now = await self.stored_rows()
        lost_subs = [sub for sub in kept[1] if sub not in now[1]] if now[0] == kept[0] else []
        lost_mail = [m for m in kept[2] if m not in now[2]]
        if lost_subs or lost_mail:
            self.found(where, f"the crash lost submissions {lost_subs} and messages {lost_mail}")

    async def stored_rows(self) -> tuple[Any, ...]:
        """The game's version, then every submission (id, revision, payload) and the ids of
        its messages."""
        from bot.db.models import Game, OutboxMessage, Submission

        async with self.tavern.db.read() as s:
            game = await s.get(Game, self.game_id)
            assert game is not None
            subs = await s.execute(
                select(Submission.id, Submission.revision, Submission.payload).where(Submission.game_id == self.game_id).order_by(Submission.id)
            )
            mail = await s.execute(select(OutboxMessage.id).where(OutboxMessage.game_id == self.game_id).order_by(OutboxMessage.id))
            return (game.version, [tuple(r) for r in subs], [r[0] for r in mail])

    async def do(self, a: Actor, move: Move, *, crash: bool = False) -> Reply | None:
        """Perform ``move`` as ``a`` and check what came of it; with ``crash`` the bot dies
        right after answering."""
        p = a.person
        before = await self.fingerprint()
        requests = len(self.emu.ctx.recorder.requests)
        errors = len(self.emu.ctx.recorder.server_errors)
        logs = len(self.trap.records)
        failed = self.stats.failed
        try:
            if move.twice:
                first, reply = await asyncio.gather(self.perform(p, move), self.perform(p, move))
            else:
                first, reply = None, await self.perform(p, move)
        except InvalidInvocation:
            self.client_refused += 1
            return None
        where = f"step {self.step_no} ({p.name}, {a.kind}): {move}"
        if crash:
            # A refusal is held to have changed nothing before the crash: the clock skipped
            # past the dead process's leases may close a phase after it.
            if reply is not None and not move.twice:
                await self.check_reply(where, reply, before)
            await self.crash(where + ", then a crash")
        await self.settled(where)
        if self.trace is not None:  # of a move sent twice, which answer came first is not ours to say
            self.trace.append(f"{where} -> {' / '.join(sorted({shown(first), shown(reply)}) if first else [shown(reply)])}")
        if reply is None:  # autocomplete, or life outside the bot
            if self.stats.failed != failed:
                self.found(where, "the autocomplete got no answer")
        else:
            if first is not None:  # which of the two is refused is the bot's choice
                await self.check_reply(where, first, None)
            if not crash or move.twice:
                await self.check_reply(where, reply, None if move.twice else before)
            if reply.result is not None and reply.result.modal:
                a.forms.append(reply)
        for r in self.emu.ctx.recorder.requests[requests:]:
            if r.status >= 400 and (r.status, r.error_code if r.status != 429 else None) not in EXPECTED_STATUSES:
                self.found(where, f"the emulator refused {r.route}: {r.status} {r.error_code} {str(r.response)[:200]}")
        await self.check_phase_post(where)
        for exc in self.emu.ctx.recorder.server_errors[errors:]:
            self.found(where, f"emulator crash: {exc!r}")
        for rec in self.trap.records[logs:]:
            if rec.levelno >= logging.ERROR:
                exc = rec.exc_info[1] if rec.exc_info else None
                self.found(where, f"logged {rec.levelname} {rec.name}: {rec.getMessage()} {exc!r}")
        return reply

    async def settled(self, where: str) -> None:
        """Wait until the outbox is delivered and the scheduler has nothing due (an early
        close sets the deadline to now; the game's clock stands still otherwise)."""
        from bot.service.deadlines import next_wakeup

        db = self.tavern.db
        for _ in range(200):
            await self.tavern.drained()
            due = await next_wakeup(db)
            if due is None or due > db.now():
                return
            self.tavern.bot.wake_scheduler()
            await asyncio.sleep(0.02)  # as Tavern.drained polls the outbox
        self.found(where, "the scheduler left a due deadline alone")

    async def perform(self, p: Person, move: Move) -> Reply | None:
        if move.kind == "command":
            return await p.command(move.what, move.options, in_dm=move.in_dm)
        if move.kind == "click":
            assert move.message is not None
            return await p.click(move.message, move.what)
        if move.kind == "select":
            assert move.message is not None
            return await p.select(move.message, move.what, move.values)
        if move.kind == "form":
            modal = move.form.result.modal
            return await p.submit_form(move.form, {_text_input_id(modal): move.values[0]})
        if move.kind == "life":
            self.live(p, move.what)
            return None
        focused, typed = next(iter(move.options.items()))
        await p.complete(move.what, focused, typed)
        return None

    def live(self, p: Person, what: str) -> None:
        user = p.user
        if what == "dms":
            user.dms_closed = not user.dms_closed
        elif what == "language":
            user.locale = p.locale = "en-US" if user.locale == "zh-CN" else "zh-CN"
        elif what == "leave":
            self.emu.remove_member(self.guild, user)
        else:
            self.emu.add_member(self.guild, user)

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
        info = await service.get_game(self.tavern.db, self.game_id)
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
            removed = set(await service.removed_players(self.tavern.db, self.game_id))
            want = {p.user_id for p in info.players if p.seat is not None and not p.alive and p.user_id} | removed
        # Whoever has left the server cannot be muted or freed meanwhile (no member).
        here = set(self.guild.members)
        muted, let_in, want = muted & here, let_in & here, want & here
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

    def found(self, where: str, problem: str) -> None:
        self.findings.append(f"seed {self.seed}, {where}: {problem}")

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

    # -- the end -----------------------------------------------------------------------
    async def finish(self) -> dict[str, Any] | None:
        """End the game if it still runs, then check the end post, the log and the channels."""
        info = await service.get_game(self.tavern.db, self.game_id)
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
        await self.check_quiet_dead("the end, all back in the server", await service.get_game(self.tavern.db, self.game_id))
        return log

    async def check_sent_once(self) -> None:
        """Nobody got a message twice. A message of the outbox was not even sent twice: its
        nonce is its key's, and a crash must not make a new process send it again (it
        looks first). A notice outside the outbox (a moderator told that a player left the
        server) may be sent again by a new process, with the same nonce, which Discord
        (and the emulator) answer with the first message, creating none."""
        from bot.db.models import OutboxMessage
        from bot.service.outbox import nonce_for

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


def shown(reply: Reply | None) -> str:
    """The gist of an answer, for the trace: the refusal, or the first line."""
    if reply is None:
        return "-"
    lines = [line for m in reply.messages for line in reader.lines_of(m)]
    return next((x for x in lines if x.startswith("⚠️")), lines[0] if lines else "nothing shown")[:160]


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


async def run_monkey(
    seed: int, steps: int = 250, *, trace: bool = False, chaos: bool = False, database_url: str | None = None
) -> Outcome:
    """One table, ``steps`` random steps, the end; what was found. With ``trace``, each
    step and the gist of its answer (ids and times left out, so that runs compare); with
    ``chaos``, restarts, crashes and skips of the clock between them. ``database_url``:
    the bot's database (default: a temporary SQLite file)."""
    t0 = time.perf_counter()
    trap = LogTrap()
    root = logging.getLogger()
    root.addHandler(trap)
    try:
        # The game's clock stands still: no deadline passes while the monkey plays (unless
        # chaos skips it), so what closes a phase is a moderator or everyone having sent.
        async with Tavern(clock=GameClock(0.0), seed=f"monkey-{seed}", database_url=database_url) as tavern:
            monkey = Monkey(tavern, seed, trap, steps, chaos=chaos)
            monkey.trace = [] if trace else None
            await monkey.setup()
            await monkey.lobby(monkey.rng.randint(2, 8))
            for _ in range(steps):
                await monkey.step()
            await monkey.finish()
            game = await monkey.stored_game()
            return Outcome(
                seed=seed,
                findings=monkey.findings,
                steps=monkey.step_no,
                refused=monkey.refused,
                client_refused=monkey.client_refused,
                over=game["status"] == "over",
                end_reason=game["end_reason"],
                rounds=game["round"],
                seconds=time.perf_counter() - t0,
                by_kind=dict(monkey.stats.by_kind),
                warnings=[f"{r.name}: {r.getMessage()}" for r in trap.records if r.levelno < logging.ERROR],
                trace=[re.sub(r"<t:\d+:R>|\d{12,}", "#", line) for line in monkey.trace or []],
                chaos=chaos,
                upheavals=dict(monkey.upheavals),
            )
    finally:
        root.removeHandler(trap)
