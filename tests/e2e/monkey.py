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
same game (a finding names the seed, the step and the move).

This module holds the table, the steps and the run; the moves are drawn by
:mod:`tests.e2e.monkey_moves`, the checks after each step are in
:mod:`tests.e2e.monkey_checks`, those at the end in :mod:`tests.e2e.monkey_end`, and the
chaos in :mod:`tests.e2e.monkey_chaos`."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

import engine
import engine.view
from bot.features.lobby.games import get_game
from bot.i18n import LOCALES
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Moderator, Person, Reply, Stats
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import _text_input_id
from discord_emulator import InvalidInvocation, Message
from tests.e2e.monkey_chaos import Upheavals
from tests.e2e.monkey_checks import StepChecks
from tests.e2e.monkey_end import EndChecks
from tests.e2e.monkey_moves import (
    FORM_TEXTS,
    MODERATOR_COMMANDS,
    PLAYER_COMMANDS,
    Chooser,
    Move,
    components,
    is_select,
    menu_values,
)

# The steps each kept seed is played for (test_monkey.py, test_monkey_chaos.py).
STEPS = 300
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


class Monkey(Upheavals, StepChecks, EndChecks):
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
        self.unreached: set[int] = set()  # departed while away from the server (monkey_checks)
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
        info = await get_game(self.tavern.db, self.game_id)
        if info.status == "lobby":
            joined = {p.user_id for p in info.players}
            for a in self.players:
                if a.person.user.id not in joined:
                    await self.do(a, self.join_move(a))
            await self.do(self.moderating, Move("command", "mod start"))
        info = await get_game(self.tavern.db, self.game_id)
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
            info = await get_game(self.tavern.db, self.game_id)
            if info.status == "paused":  # a moderator who paused resumes soon after
                move = Move("command", "phase resume")
        move = move or await self.pick_move(actor)
        if move.kind in ("click", "select", "command") and self.rng.random() < 0.05:
            move.twice = True  # a double click, or a command sent again before the answer
        actor, move = self.chaos_move(actor, move, upheaval)
        reply = await self.do(actor, move, crash=upheaval == "crash")
        found = reply.find(move.then) if reply is not None and move.then else None
        if found is not None:
            await self.do(actor, Move("click", found[1], message=found[0]))

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
        from bot.core.deadlines import next_wakeup

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

    def found(self, where: str, problem: str) -> None:
        self.findings.append(f"seed {self.seed}, {where}: {problem}")


def played_and_ended(outcome: Outcome) -> None:
    """The game was played over rounds and ended; commands, the order panel's buttons
    and menus, and the grail number (by the form or the command) were all used, and many
    things were refused (the monkey is mostly wrong) but not all."""
    assert outcome.over and outcome.end_reason
    assert outcome.rounds >= 2, outcome
    kinds = outcome.by_kind
    assert kinds.get("/phase advance", 0) >= 10 and kinds.get("modal", 0) + kinds.get("/grail", 0) >= 1, kinds
    assert any(k in kinds for k in ("atk", "vote", "skill", "idp")), kinds
    assert 0.2 * outcome.steps < outcome.refused < outcome.steps


def shown(reply: Reply | None) -> str:
    """The gist of an answer, for the trace: the refusal, or the first line."""
    if reply is None:
        return "-"
    lines = [line for m in reply.messages for line in reader.lines_of(m)]
    return next((x for x in lines if x.startswith("⚠️")), lines[0] if lines else "nothing shown")[:160]


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
