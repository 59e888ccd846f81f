"""The product files three requests walk through on the local Discord, and how often they
cross between the Discord layer and the service.

    .venv/bin/python bench/walks.py [--json] [--list]

The sandbox's table (the emulator, the real ``WolfBot``, a server with a moderator and six
players, a temporary SQLite database) plays a whole round first, so that imports, caches
and first-time work are done, then the next round's Day, and traces:

1. ``act``: ``/act attack @player`` sent in a DM at Dusk;
2. ``advance``: the moderator's ``/phase advance`` in the game channel, which closes the
   Dusk (also: what it entered before its first call of ``engine.advance``);
3. ``delivery``: the outbox dispatcher delivering what that advance wrote (the public
   post, each seat's news, the prompts), from the advance's commit until the dispatcher
   rests again with every message of it delivered (its passes, and the reconciler it
   runs after each, included), per message too.

How. ``sys.setprofile`` on the event loop's thread sees every Python call; each event
belongs to ``asyncio.current_task()`` (for a loop callback, to the task that scheduled
it). A task factory records each new task's parent (the task at its creation); a walk's
tasks are its root and the root's descendants: for 1 and 2 the task discord.py's
``CommandTree`` runs that interaction in (picked by the interaction's id), for 3 the
dispatcher's loop. The bot's other loops and the emulator are never a walk's.

A coroutine that suspends at an ``await`` reports a "return", and a "call" when resumed:
neither counts. A call counts at a frame's first entry and a return at its final one,
told apart by the instruction the frame stands at (:func:`first_entry`, :func:`suspended`:
``YIELD_VALUE``, or from 3.13 the ``RESUME`` after it, is a suspension; a frame thrown
into, cancelled or closed, that ends at once at its yield has ended). From 3.13 a
generator closed before its end (``any()`` over a generator expression) ends without
an event: it is left among the walk's open frames. Calls are fewer from 3.12, whose
comprehensions run in their function's frame; files and switches are the same.

"Product files" are this checkout's files that :data:`LAYERS` names (bot/ and engine/,
not the sandbox that drives the bot); a walk's files are the distinct product files of
which a frame was called in its tasks, in the order first entered. (The delivery sends
to its destinations side by side, so there the order may differ from run to run.)

Switches: at each call of a product frame whose layer is in :data:`SWITCHING`, the
nearest frame below it on the stack (``f_back``, library frames and the other layers
skipped, so a callback through discord.py or SQLAlchemy counts) whose layer is in
:data:`SWITCHING` is found; a different layer there is one switch, and that frame's final
return one more, back. A Discord handler that calls one service function is 2. A task's
root coroutine has asyncio below it: no switch.

The outbox loop's interval is set to an hour so that it runs only when woken (by a
commit that wrote messages): no timed pass falls inside a walk. Every game is dealt
from the same seed, so each run plays the same game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import dis
import gc
import importlib
import inspect
import json
import os
import re
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# -- the layers: update here when folders move --------------------------------------------
# (pattern, layer) over paths relative to the checkout, first match wins; ``*`` is one
# folder's name, and the layer "*" names the layer after it. A path matching none, or
# matched to None, is not a product file.
LAYERS: tuple[tuple[str, str | None], ...] = (
    ("bot/sandbox/", None),  # the harness (its database hook runs in the bot's tasks)
    ("bot/discord/", "discord"),
    ("bot/features/*/cog", "discord"),  # a feature's slash commands (cog*.py)
    ("bot/features/*/components", "discord"),  # its buttons and menus (components*.py)
    ("bot/features/*/look", "render"),  # how it reads (look*.py)
    ("bot/features/", "service"),  # its use cases
    ("bot/core/", "service"),
    ("engine/", "engine"),
    ("bot/*/", "*"),  # any other folder of bot/: db, render, i18n, ai, …
    ("bot/", "other"),  # a module at the top of bot/: config, metrics, log_context, …
)
# The layers whose crossings are the switches counted.
SWITCHING = frozenset({"discord", "service"})
# The folders counted on their own in the summary; any other layer counts as "other".
GROUPS = ("discord", "service", "db", "engine", "render", "i18n")

SEED = "walks"
PHASES = {"day": "2h", "dusk": "2h", "morning": "1h"}  # nothing closes by itself


def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(
        "".join(
            "([^/]+)" if part == "*" else re.escape(part) for part in re.split(r"(\*)", pattern)
        )
    )


_LAYER_PATTERNS = [(_compiled(pattern), name) for pattern, name in LAYERS]
_ROOT_PREFIX = str(ROOT) + os.sep


def layer_of(path: str) -> str | None:
    """The layer of a path relative to the checkout (None: not a product file)."""
    for pattern, name in _LAYER_PATTERNS:
        found = pattern.match(path)
        if found:
            return found.group(1) if name == "*" else name  # (None: not the product's)
    return None


def file_layer(filename: str) -> str | None:
    """The layer of a code object's file (None: not this checkout's bot/ or engine/)."""
    if not filename.startswith(_ROOT_PREFIX):
        return None
    return layer_of(filename[len(_ROOT_PREFIX) :].replace(os.sep, "/"))


def relative(filename: str) -> str:
    return (
        filename[len(_ROOT_PREFIX) :].replace(os.sep, "/")
        if filename.startswith(_ROOT_PREFIX)
        else filename
    )


def where(code: CodeType) -> str:
    return f"{relative(code.co_filename)}:{code.co_qualname}"


def group_of(layer: str) -> str:
    return layer if layer in GROUPS else "other"


# -- frames: first entries and final returns ----------------------------------------------
YIELD_VALUE = dis.opmap["YIELD_VALUE"]
RESUME = dis.opmap["RESUME"]
RESUMABLE = (
    inspect.CO_GENERATOR
    | inspect.CO_COROUTINE
    | inspect.CO_ASYNC_GENERATOR
    | inspect.CO_ITERABLE_COROUTINE
)


def _at(frame: FrameType) -> tuple[int, int]:
    """The opcode and argument of the instruction ``frame`` stands at."""
    code, i = frame.f_code.co_code, frame.f_lasti
    return code[i], code[i + 1]


def first_entry(frame: FrameType) -> bool:
    """At a "call" event: the frame starts (not a generator or coroutine resumed). A
    resumable frame starts at its ``RESUME 0``; it resumes after a yield (``RESUME 1-3``)
    or, thrown into, at the yield itself."""
    if not frame.f_code.co_flags & RESUMABLE:
        return True
    op, arg = _at(frame)
    return op == RESUME and arg & 3 == 0


def suspended(frame: FrameType) -> bool:
    """At a "return" event: the frame suspends (yield, await) rather than ending. On
    3.11 and 3.12 it stands at its ``YIELD_VALUE``; from 3.13 at the ``RESUME`` after it."""
    if not frame.f_code.co_flags & RESUMABLE:
        return False
    op, arg = _at(frame)
    return op == YIELD_VALUE or (op == RESUME and arg & 3 != 0)


# -- tasks and their parents ----------------------------------------------------------------
_OWNER: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar(
    "walks_owner", default=None
)


def task_now() -> asyncio.Task[Any] | None:
    """The task running now or, in a loop callback, the task that scheduled it (the
    callback runs in a copy of that task's context)."""
    try:
        return asyncio.current_task() or _OWNER.get()
    except RuntimeError:  # no running loop (a thread's or a finalizer's frames)
        return None


class Lineage:
    """The loop's task factory: every new task's parent (the task at its creation, or the
    one whose callback created it), and a word to whoever listens for new tasks."""

    def __init__(self) -> None:
        self.parents: weakref.WeakKeyDictionary[asyncio.Task[Any], asyncio.Task[Any] | None] = (
            weakref.WeakKeyDictionary()
        )
        self.listeners: list[Callable[[asyncio.Task[Any], asyncio.Task[Any] | None], None]] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        assert loop.get_task_factory() is None, "the loop has a task factory already"
        loop.set_task_factory(self._factory)  # type: ignore[arg-type]

    def _factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        parent = task_now()
        given = kwargs.pop("context", None)
        context = (contextvars.copy_context() if given is None else given).copy()
        task = asyncio.Task(coro, loop=loop, context=context, **kwargs)
        context.run(_OWNER.set, task)
        self.parents[task] = parent
        for listener in self.listeners:
            listener(task, parent)
        return task


# -- one walk ---------------------------------------------------------------------------------
@dataclass
class Walk:
    """What one request's tasks entered: files in first-entry order, calls, switches."""

    name: str
    # The figures are kept at this code's first call (engine.advance; the dispatcher's pause)
    mark_code: CodeType | None = None
    roots: set[asyncio.Task[Any]] = field(default_factory=set)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # filename -> layer
    first: dict[str, str] = field(default_factory=dict)  # filename -> what was first called there, and from where
    calls: int = 0
    across: int = 0
    back: int = 0
    mark: dict[str, int] | None = None
    # (code called from, code called) -> switches across
    crossings: dict[tuple[CodeType, CodeType], int] = field(default_factory=dict)
    # Frames entered and not yet ended: id -> [frame, crossed on entry, thrown-in offset]
    live: dict[int, list[Any]] = field(default_factory=dict)
    _member: dict[asyncio.Task[Any], bool] = field(default_factory=dict)

    @property
    def switches(self) -> int:
        return self.across + self.back

    def add_root(self, task: asyncio.Task[Any]) -> None:
        self.roots.add(task)
        self._member[task] = True
        self.tasks.append(task)

    def owns(self, task: asyncio.Task[Any] | None, lineage: Lineage) -> bool:
        if task is None:
            return False
        known = self._member.get(task)
        if known is None:
            known, t = False, task
            while t is not None and not known:
                known = t in self.roots
                t = lineage.parents.get(t)
            self._member[task] = known
        return known

    def adopt(
        self, task: asyncio.Task[Any], parent: asyncio.Task[Any] | None, lineage: Lineage
    ) -> None:
        if self.owns(parent, lineage):
            self._member[task] = True
            self.tasks.append(task)

    def enter(self, frame: FrameType, layer: str, caller: FrameType | None) -> None:
        """A first entry; ``caller``: the frame of the other switching layer it was called
        from (a switch), if it was."""
        code = frame.f_code
        if code is self.mark_code and self.mark is None:
            self.mark = {"files": len(self.files), "switches": self.switches, "calls": self.calls}
        self.calls += 1
        if code.co_filename not in self.files:
            back = frame.f_back
            self.first[code.co_filename] = f"{code.co_qualname} (from {relative(back.f_code.co_filename)}:{back.f_code.co_qualname})" if back else code.co_qualname
        self.files.setdefault(code.co_filename, layer)
        if caller is not None:
            self.across += 1
            key = (caller.f_code, code)
            self.crossings[key] = self.crossings.get(key, 0) + 1
        self.live[id(frame)] = [frame, caller is not None, -1]

    def figures(self) -> dict[str, Any]:
        by_group = dict.fromkeys((*GROUPS, "other"), 0)
        for layer in self.files.values():
            by_group[group_of(layer)] += 1
        return {
            "files": len(self.files),
            "by_folder": by_group,
            "switches": self.switches,
            "across": self.across,
            "back": self.back,
            "calls": self.calls,
            "tasks": len(self.tasks),
            # entered, no final return seen in the walk
            "open_frames": [where(entry[0].f_code) for entry in self.live.values()],
            "entered": [[relative(f), layer, self.first.get(f, "")] for f, layer in self.files.items()],
            "crossings": [[where(a), where(b), n] for (a, b), n in self.crossings.items()],
        }


class Tracer:
    """The profile function: each product frame's call and return, for the walk whose
    task runs it. Installed while a walk is on; the garbage collector is off meanwhile, so
    no finalizer runs inside a walk at a moment that differs from run to run."""

    def __init__(self, lineage: Lineage, layer: Callable[[str], str | None] = file_layer) -> None:
        self.lineage = lineage
        self._layer_of_file = layer
        self._layers: dict[str, str | None] = {}
        self.walks: list[Walk] = []
        self.errors: list[BaseException] = []
        lineage.listeners.append(self._adopt)

    def start(self, walk: Walk) -> None:
        if not self.walks:
            gc.collect()
            gc.disable()
            sys.setprofile(self._event)
        self.walks.append(walk)

    def stop(self, walk: Walk) -> None:
        self.walks.remove(walk)
        if not self.walks:
            sys.setprofile(None)
            gc.enable()

    @contextlib.contextmanager
    def tracing(self, walk: Walk) -> Iterator[Walk]:
        self.start(walk)
        try:
            yield walk
        finally:
            if walk in self.walks:
                self.stop(walk)

    def _adopt(self, task: asyncio.Task[Any], parent: asyncio.Task[Any] | None) -> None:
        for walk in self.walks:
            walk.adopt(task, parent, self.lineage)

    def _layer(self, filename: str) -> str | None:
        try:
            return self._layers[filename]
        except KeyError:
            layer = self._layers[filename] = self._layer_of_file(filename)
            return layer

    def _walk_now(self) -> Walk | None:
        task = task_now()
        for walk in self.walks:
            if walk.owns(task, self.lineage):
                return walk
        return None

    def _caller(self, frame: FrameType, layer: str) -> FrameType | None:
        """The nearest frame below ``frame`` of a switching layer, if that layer is not
        ``frame``'s (a switch); None if there is none or it is the same layer."""
        if layer not in SWITCHING:
            return None
        below = frame.f_back
        while below is not None:
            other = self._layer(below.f_code.co_filename)
            if other in SWITCHING:
                return below if other != layer else None
            below = below.f_back
        return None

    def _event(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call" and event != "return":
            return
        layer = self._layer(frame.f_code.co_filename)
        if layer is None:
            return
        try:
            walk = self._walk_now()
            if walk is None:
                return
            if event == "call":
                self._call(walk, frame, layer)
            else:
                self._return(walk, frame)
        except Exception as exc:  # an error here would be raised in the bot's frame
            self.errors.append(exc)

    def _call(self, walk: Walk, frame: FrameType, layer: str) -> None:
        if first_entry(frame):
            walk.enter(frame, layer, self._caller(frame, layer))
            return
        entry = walk.live.get(id(frame))
        if entry is not None and entry[0] is frame:  # resumed: by a throw if not at RESUME
            entry[2] = frame.f_lasti if _at(frame)[0] != RESUME else -1

    def _return(self, walk: Walk, frame: FrameType) -> None:
        entry = walk.live.get(id(frame))
        if entry is None or entry[0] is not frame:
            return  # entered before the walk
        # Thrown into (cancelled, closed) and ending at once at the yield it stood at: on
        # 3.11 and 3.12 that looks like a suspension, but it resumed and ran nothing.
        if suspended(frame) and entry[2] != frame.f_lasti:
            entry[2] = -1
            return
        del walk.live[id(frame)]
        walk.back += entry[1]


# -- the table ----------------------------------------------------------------------------------
@dataclass
class Game:
    tavern: Any
    seating: Any

    @property
    def emu(self) -> Any:
        return self.tavern.emu

    @property
    def channel(self) -> Any:
        return self.seating.channel

    @property
    def moderator(self) -> Any:
        return self.seating.moderator

    async def living(self) -> list[Any]:
        """The players alive, by seat."""
        from bot.features.lobby.games import game_in_channel

        info = await game_in_channel(self.tavern.db, self.channel.id)
        assert info is not None and info.status != "over", "the game ended"
        users = {u.id: u for u in self.seating.players}
        return [
            users[p.user_id]
            for p in sorted(info.players, key=lambda p: p.seat or 0)
            if p.alive and p.seat is not None
        ]

    async def send(
        self, user: Any, command: str, options: dict[str, Any] | None = None, *, dm: bool = False
    ) -> Any:
        """A slash command (in the game channel, or in a DM), answered without a refusal."""
        where = {"dm": True} if dm else {"channel": self.channel}
        result = await self.emu.slash(user, command, options or {}, **where)
        return await answered(result, f"/{command}")

    async def advance(self) -> None:
        await self.send(self.moderator, "phase advance")
        await self.tavern.drained()


async def answered(result: Any, what: str, timeout: float = 30.0) -> Any:
    from bot.sandbox import play_reader as reader

    await result.wait(timeout)
    messages = [m for m in (result.message, *result.followups) if m is not None]
    if any(reader.is_error(m) for m in messages):
        raise RuntimeError(
            f"{what} was refused: {' / '.join(reader.message_text(m) for m in messages)}"
        )
    return result


async def opened(tavern: Any) -> Game:
    """A started six-player game: /mod create in the channel, each player's /game join,
    /mod start; everything delivered."""
    from bot.sandbox.play_table import TableSpec

    game = Game(tavern, tavern.seat_table(TableSpec(players=6)))
    await game.send(game.moderator, "mod create", PHASES)
    await tavern.drained()
    for player in game.seating.players:
        await game.send(player, "game join")
    await game.send(game.moderator, "mod start")
    await tavern.drained()
    return game


async def day(game: Game, round_no: int) -> None:
    """Grail numbers from every living player but one (all of them would close the Day
    early, by the scheduler, racing the moderator), then /phase advance."""
    for i, player in enumerate((await game.living())[:-1]):
        await game.send(player, "grail", {"number": 1 + (17 * i + 31 * round_no) % 100}, dm=True)
    await game.advance()


async def warmed_up(game: Game) -> None:
    """A whole round (Day's grail numbers, Dusk's attack by mention in a DM, Morning's
    votes), then the next Day: every message delivered, the dispatcher at rest."""
    await day(game, 1)
    living = await game.living()
    await game.send(living[1], "act attack", {"player": f"<@{living[-1].id}>"}, dm=True)
    await game.advance()
    living = await game.living()
    for voter in living[:3]:
        await game.send(voter, "vote", {"player": f"<@{living[-1].id}>"}, dm=True)
    await game.advance()
    await day(game, 2)
    await resting(game.tavern.bot)


def dispatcher_task(bot: Any) -> asyncio.Task[Any]:
    """The outbox dispatcher's loop (the task running its class's ``run_forever``)."""
    code = type(bot.dispatcher).run_forever.__code__
    return next(t for t in asyncio.all_tasks() if getattr(t.get_coro(), "cr_code", None) is code)


def at_rest(bot: Any) -> bool:
    """The dispatcher is suspended in its pause between passes, and not woken meanwhile
    (a wake while it pauses ends the pause at its next turn)."""
    if bot.dispatcher._wake.is_set():  # (bot.core.background)
        return False
    pause = type(bot.dispatcher).pause.__code__
    coro: Any = dispatcher_task(bot).get_coro()
    while coro is not None:
        if getattr(coro, "cr_code", None) is pause:
            return True
        coro = getattr(coro, "cr_await", None)
    return False


async def resting(bot: Any, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not at_rest(bot):
        if time.monotonic() > end:
            raise TimeoutError("the dispatcher did not come to rest")
        await asyncio.sleep(0.01)


@dataclass(frozen=True)
class Row:
    id: int
    status: str
    kind: str  # the recipient's kind and the payload's type: "channel events", "user prompt", …


async def outbox_rows(db: Any, after: int = 0) -> list[Row]:
    """The outbox rows written after the one numbered ``after``."""
    from sqlalchemy import select

    from bot.db.models import OutboxMessage as M

    async with db.read() as session:
        stmt = (
            select(M.id, M.status, M.recipient_kind, M.payload).where(M.id > after).order_by(M.id)
        )
        rows = (await session.execute(stmt)).all()
    return [Row(i, status, f"{kind} {payload.get('type')}") for i, status, kind, payload in rows]


# -- the walks -----------------------------------------------------------------------------------
def tree_wrapper() -> CodeType:
    """The code of the coroutine discord.py's CommandTree runs each interaction in
    (``_from_interaction``'s ``wrapper``, one task per interaction)."""
    from discord import app_commands

    consts = app_commands.CommandTree._from_interaction.__code__.co_consts
    return next(c for c in consts if isinstance(c, CodeType) and c.co_name == "wrapper")


class InteractionRoot:
    """Picks a walk's root: the CommandTree task of the interaction with this id."""

    def __init__(self, walk: Walk, lineage: Lineage) -> None:
        self.walk, self.lineage, self.code = walk, lineage, tree_wrapper()
        self.interaction_id: int | None = None
        self.seen: list[tuple[asyncio.Task[Any], int]] = []

    def __enter__(self) -> InteractionRoot:
        self.lineage.listeners.append(self._new)
        return self

    def __exit__(self, *exc: object) -> None:
        self.lineage.listeners.remove(self._new)

    def _new(self, task: asyncio.Task[Any], parent: asyncio.Task[Any] | None) -> None:
        coro = task.get_coro()
        if getattr(coro, "cr_code", None) is self.code:
            self.seen.append((task, coro.cr_frame.f_locals["interaction"].id))  # type: ignore[union-attr]
            self._pick()

    def sent(self, interaction_id: int) -> None:
        self.interaction_id = interaction_id
        self._pick()

    def _pick(self) -> None:
        for task, interaction_id in self.seen:
            if interaction_id == self.interaction_id and task not in self.walk.roots:
                self.walk.add_root(task)


async def walk_interaction(
    tracer: Tracer, walk: Walk, start: Callable[[], Any], what: str, timeout: float = 30.0
) -> Any:
    """Trace ``start()``'s interaction (an ``emu.slash``) in ``walk``: from its task's
    creation until it and every task it made are done (or ``timeout``)."""
    with InteractionRoot(walk, tracer.lineage) as root, tracer.tracing(walk):
        result = await start()
        root.sent(result.id)
        await answered(result, what, timeout)
        end = time.monotonic() + timeout
        while not walk.roots:
            assert time.monotonic() < end, f"no CommandTree task for {what}"
            await asyncio.sleep(0.01)
        while pending := [t for t in walk.tasks if not t.done()]:
            if time.monotonic() > end:
                raise TimeoutError(
                    f"{what}: tasks still running: {[t.get_name() for t in pending]}"
                )
            await asyncio.wait(pending, timeout=0.1)
    return result


async def act(tracer: Tracer, game: Game) -> dict[str, Any]:
    attacker, *_, target = await game.living()
    walk = Walk("act")
    result = await walk_interaction(
        tracer,
        walk,
        lambda: game.emu.slash(attacker, "act attack", {"player": f"<@{target.id}>"}, dm=True),
        "/act attack",
    )
    return walk.figures() | {"deferred": bool(result.deferred)}


async def advance_and_delivery(tracer: Tracer, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """``/phase advance`` (closing the Dusk), and the delivery of what it wrote, traced
    from its commit (the first "messages written" signal) until the dispatcher rests."""
    from bot.db.signals import MESSAGES

    bot, db = game.tavern.bot, game.tavern.db
    before = max((row.id for row in await outbox_rows(db)), default=0)
    # (the package ``engine`` names its function ``advance`` too: the module by its name)
    engine_advance = importlib.import_module("engine.advance").advance
    advance = Walk("advance", mark_code=engine_advance.__code__)
    delivery = Walk("delivery", mark_code=type(bot.dispatcher).pause.__code__)

    def committed() -> None:
        if delivery not in tracer.walks and not delivery.roots:
            delivery.add_root(dispatcher_task(bot))
            tracer.start(delivery)

    unlisten = db.signals.listen(MESSAGES, committed)
    try:
        result = await walk_interaction(
            tracer,
            advance,
            lambda: game.emu.slash(game.moderator, "phase advance", {}, channel=game.channel),
            "/phase advance",
        )
        assert delivery.roots, "the advance wrote no messages"
        end = time.monotonic() + 60
        while delivery.mark is None or not at_rest(bot):  # entered its pause, and rests there
            assert time.monotonic() < end, "the dispatcher did not come to rest"
            await asyncio.sleep(0.01)
    finally:
        unlisten()
        if delivery in tracer.walks:
            tracer.stop(delivery)
    rows = await outbox_rows(db, before)
    left = [r for r in rows if r.status == "pending"]
    assert not left, f"messages of the advance not delivered: {left}"
    sent = [r.kind for r in rows if r.status == "sent"]
    advanced = advance.figures() | {
        "before_engine_advance": advance.mark,
        "deferred": bool(result.deferred),
    }
    delivered = delivery.figures() | {
        "messages": len(sent),
        "rows": len(rows),
        "message_kinds": {kind: sent.count(kind) for kind in sorted(set(sent))},
        "switches_per_message": round(delivery.switches / len(sent), 2) if sent else None,
    }
    return advanced, delivered


async def measure() -> dict[str, Any]:
    from bot.sandbox.play_table import Tavern

    lineage = Lineage()
    lineage.install(asyncio.get_running_loop())
    tracer = Tracer(lineage)
    async with Tavern(seed=SEED, bot_options={"dispatch_interval": 3600.0}) as tavern:
        game = await opened(tavern)
        await warmed_up(game)
        figures = {"act": await act(tracer, game)}
        await tavern.drained()
        await resting(tavern.bot)
        figures["advance"], figures["delivery"] = await advance_and_delivery(tracer, game)
        assert tavern.emu.server_errors == [], tavern.emu.server_errors
    if tracer.errors:
        raise RuntimeError(f"the profile function failed: {tracer.errors[:3]!r}")
    return figures


# -- the report --------------------------------------------------------------------------------
TITLES = {
    "act": "/act attack @player, in a DM at Dusk",
    "advance": "/phase advance by the moderator, closing the Dusk",
    "delivery": "the delivery of that advance's messages",
}


def report(walks: dict[str, dict[str, Any]], listing: bool) -> Iterator[str]:
    for name, w in walks.items():
        folders = ", ".join(f"{k} {v}" for k, v in w["by_folder"].items())
        yield f"{name}: {TITLES[name]}"
        yield f"  {w['files']} product files entered ({folders})"
        yield f"  {w['switches']} switches between discord and service ({w['across']} across, {w['back']} back); {w['calls']} product calls in {w['tasks']} task(s)"
        if "deferred" in w:
            yield f"  first response: {'acknowledged (thinking…), then the answer' if w['deferred'] else 'the answer itself'}"
        if w.get("before_engine_advance"):
            mark = w["before_engine_advance"]
            yield f"  before engine.advance: {mark['files']} files, {mark['switches']} switches, {mark['calls']} calls"
        if "messages" in w:
            kinds = ", ".join(f"{n} {kind}" for kind, n in w["message_kinds"].items())
            yield f"  {w['messages']} messages delivered of {w['rows']} outbox rows written ({kinds}): {w['switches_per_message']} switches per message"
        if w["open_frames"]:
            yield f"  entered, not returned from when the walk ended: {', '.join(w['open_frames'])}"
        if listing:
            yield "  files, in first-entry order:"
            for i, (path, layer, first) in enumerate(w["entered"], 1):
                yield f"    {i:3} {path:56} {layer:8} {first}"
            yield "  switches across (each one back too, once returned):"
            for caller, callee, n in w["crossings"]:
                yield f"    {n:3} x {caller} -> {callee}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--json", action="store_true", help="end with one JSON object of every figure"
    )
    parser.add_argument(
        "--list", action="store_true", help="every file entered, in first-entry order"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    walks = asyncio.run(measure())
    seconds = round(time.perf_counter() - t0, 1)
    import discord

    print(
        f"Python {sys.version.split()[0]}, discord.py {discord.__version__}; a six-player game, round 2"
    )
    for line in report(walks, args.list):
        print(line)
    print(f"run time {seconds} s")
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "walks": walks, "run_s": seconds}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
