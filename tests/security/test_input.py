"""Payloads Discord would not send, forged as a modified client (or an admin's old
command settings) could send them, over the local Discord to the real bot: ``/grail``
with a string or 50.5, ``/vote`` with an integer, a user option without its ``resolved``
data, a non-numeric value in the order panel's menu, a leaderboard page of 25 digits.

Each is answered (ephemerally, in the sender's language) by the typed layer
(``bot.discord.payload``), with no ERROR log, and nothing is stored. Then Hypothesis
throws arbitrary payloads at every command, every kind of component the bot posts and
its form, ``EXAMPLES`` at each, from players, the moderator and a stranger, in the
game's channel, another server and DMs (``test_arbitrary_payloads_are_refused``: 59
commands, kinds of component and forms, about 1,800 payloads, under 30 s on two cores),
on the same bot and the same game.

One emulator and one bot serve the module, on an event loop of its own (the tests run
their steps on it one after another): the game is in Day 1 for the first tests and in
Dusk 1 from the panel's test on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.db.models import Base, Game, Submission
from bot.features.gallery.components import predict_view
from bot.features.history.components import history_view
from bot.features.history.history import HistoryPage
from bot.features.lobby.components import JoinButton, LeaveButton
from bot.features.moderation.commands import CancelGame
from bot.features.moderation.components import ConfirmButton
from bot.features.play.components import VoteSelect
from bot.features.replay.components import replay_view
from bot.features.standbys.components import offer_view
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import Player
from discord_emulator import Channel, Message, User
from discord_emulator.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
)

T = TypeVar("T")
# The heartbeat's row moves on its own timer, and the DM channels the outbox opens are
# a cache of delivery; every other table must not move.
MOVING = {"processes", "dm_channels"}


class Errors(logging.Handler):
    """Every record at ERROR or above, from any logger (discord.py's "Ignoring
    exception…", asyncio's "Task exception was never retrieved", ours)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class World:
    """The emulator, the bot and one game, on the module's own event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.errors = Errors()
        self.tavern = Tavern(clock=GameClock(1.0), seed="input")
        self.phase = "day"

    def do(self, coro: Awaitable[T]) -> T:
        return self.loop.run_until_complete(coro)

    async def start(self) -> None:
        await self.tavern.__aenter__()
        slow = GameOptions(day="1h", dusk="1h", morning="1h")
        self.game = TableGame(self.tavern, self.tavern.seat_table(TableSpec(players=6)), slow, seed="input")
        await self.game.open()
        assert await self.game.next_phase(1, "day")
        for p in self.game.players:
            await p.read()
        self.alice, self.amin = self.game.players[0], self.game.players[2]
        assert self.amin.locale == "zh-CN"
        self.channel = self.game.seating.channel
        await self.tavern.drained()
        logging.getLogger().addHandler(self.errors)

    async def stop(self) -> None:
        logging.getLogger().removeHandler(self.errors)
        await self.tavern.__aexit__(None, None, None)

    async def to_dusk(self) -> None:
        if self.phase == "dusk":
            return
        await self.game.play_phase(1, "day")
        assert await self.game.next_phase(1, "dusk")
        for p in self.game.players:
            await p.read()
        await self.tavern.drained()
        self.phase = "dusk"

    # -- forging ----------------------------------------------------------------------
    def command_data(self, path: str, options: list[dict[str, Any]], resolved: dict[str, Any] | None = None) -> dict[str, Any]:
        """``/path`` with ``options`` as given (nested in its group's subcommand)."""
        found = self.tavern.emu.ctx.commands.resolve(path, guild_id=None)
        data: dict[str, Any] = {"id": str(found.command.id), "name": found.command.name, "type": 1, "options": found.wrap(options)}
        if resolved is not None:
            data["resolved"] = resolved
        return data

    async def forge(
        self, kind: int, user: User, data: dict[str, Any], *, locale: str | None = None, message: Message | None = None,
        where: Channel | None = None,
    ) -> InteractionResult:
        """A raw INTERACTION_CREATE, as sent (in the game's channel, or ``where``), and
        the bot's answer to it."""
        result = self.tavern.emu.ctx.interactions.create(
            kind, user, where or self.channel, data, locale=locale or user.locale, source_message=message,
            command_name=data.get("name") if kind in (APPLICATION_COMMAND, AUTOCOMPLETE) else None,
        )  # fmt: skip
        return await result.wait(10)

    async def stored(self) -> list[Any]:
        """What a refused payload must not change: the rows of every table (the number
        of them; the whole of those a player's input writes)."""
        async with self.tavern.db.read() as s:
            counts = [(tb.name, (await s.execute(select(func.count()).select_from(tb))).scalar_one()) for tb in Base.metadata.sorted_tables if tb.name not in MOVING]
            games = (await s.execute(select(Game.id, Game.version, Game.round, Game.phase, Game.status, Game.state).order_by(Game.id))).all()
            subs = (await s.execute(select(Submission).order_by(Submission.id))).scalars().all()
            return [counts, [tuple(map(str, g)) for g in games], [(x.id, x.revision, str(x.payload)) for x in subs]]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World()
    try:
        w.do(w.start())
        yield w
    finally:
        w.do(w.stop())
        # What asyncio.run does at its end: whatever is still pending (discord.py's view
        # timers) is cancelled, then the loop closed.
        pending = asyncio.all_tasks(w.loop)
        for task in pending:
            task.cancel()
        w.do(asyncio.gather(*pending, return_exceptions=True))
        w.do(w.loop.shutdown_asyncgens())
        w.loop.close()


def refused(world: World, attempt: Awaitable[InteractionResult]) -> tuple[InteractionResult, str]:
    """Send ``attempt``; it must be answered with an ephemeral refusal, log no ERROR and
    store nothing. Its text."""
    before = world.do(world.stored())
    seen = len(world.errors.records)
    result = world.do(attempt)
    after = world.do(world.stored())
    assert result.is_final(), result
    message = result.message
    assert message is not None and message.ephemeral and reader.is_error(message), message
    assert world.errors.records[seen:] == [], [r.getMessage() for r in world.errors.records[seen:]]
    assert after == before
    return result, reader.message_text(message)


def said(key: str, locale: str, **params: Any) -> str:
    return t(key, locale, **params)


# -- the cases ------------------------------------------------------------------


@pytest.mark.parametrize(("value", "who"), [("abc", "alice"), ("50", "amin"), (50.5, "alice"), (True, "amin")])
def test_grail_number_of_another_type(world: World, value: Any, who: str) -> None:
    """A string, a float (50.5 was taken, echoed, stored, and cut to 50 at the Day's
    end), a boolean: refused as not a whole number."""
    p: Player = getattr(world, who)
    data = world.command_data("grail", [{"name": "number", "type": 4, "value": value}])
    _, text = refused(world, world.forge(APPLICATION_COMMAND, p.user, data))
    kind = said("input.kind.integer", p.locale)
    assert said("input.option_type", p.locale, option=said("cmd.name.number", p.locale), kind=kind) in text


def test_grail_number_sent_as_a_string_option(world: World) -> None:
    data = world.command_data("grail", [{"name": "number", "type": 3, "value": "42"}])
    _, text = refused(world, world.forge(APPLICATION_COMMAND, world.alice.user, data))
    assert said("input.option_type", "en-US", option="number", kind=said("input.kind.integer", "en-US")) in text


@pytest.mark.parametrize("option", [{"name": "player", "type": 4, "value": 2}, {"name": "player", "type": 3, "value": 2}])
def test_vote_with_an_integer(world: World, option: dict[str, Any]) -> None:
    data = world.command_data("vote", [option])
    _, text = refused(world, world.forge(APPLICATION_COMMAND, world.amin.user, data))
    assert said("input.option_type", "zh-CN", option=said("cmd.name.player", "zh-CN"), kind=said("input.kind.string", "zh-CN")) in text


@pytest.mark.parametrize("path", ["mod replace", "stats view"])
def test_user_option_without_resolved_data(world: World, path: str) -> None:
    """The user's id alone: discord.py hands the handler a bare Object (no name), and one
    of the two went unanswered."""
    someone = world.game.players[1].user
    options = [{"name": "newcomer" if path == "mod replace" else "player", "type": 6, "value": str(someone.id)}]
    if path == "mod replace":
        options.insert(0, {"name": "player", "type": 3, "value": "1"})
    data = world.command_data(path, options)
    user = world.game.moderator.user if path == "mod replace" else world.alice.user
    _, text = refused(world, world.forge(APPLICATION_COMMAND, user, data))
    option = options[-1]["name"]
    assert said("input.option_unresolved", "en-US", option=said(f"cmd.name.{option}", "en-US")) in text


@pytest.mark.parametrize("page", [10**24, 10**18, 2**53])
def test_leaderboard_page_of_many_digits(world: World, page: int) -> None:
    """The page reached SQLite's OFFSET and overflowed it. (A number of 25 digits is
    beyond 64 bits: JSON decoders, discord.py's too, read it as a float.)"""
    data = world.command_data("leaderboard", [{"name": "page", "type": 4, "value": page}])
    _, text = refused(world, world.forge(APPLICATION_COMMAND, world.alice.user, data))
    from bot.features.stats.leaderboard import MAX_PAGE

    in_range = said("input.option_range", "en-US", option="page", low=1, high=MAX_PAGE)
    whole = said("input.option_type", "en-US", option="page", kind=said("input.kind.integer", "en-US"))
    assert in_range in text or (page >= 2**64 and whole in text), text


def test_leaderboard_button_of_a_25_digit_page(world: World) -> None:
    board = world.do(world.alice.command("leaderboard"))
    assert not board.error, board.text
    found = board.find("wh:lb:")
    assert found is not None
    message, custom_id = found
    forged = custom_id.rsplit(":", 1)[0] + ":" + "9" * 25
    data = {"custom_id": forged, "component_type": 2}
    _, text = refused(world, world.forge(MESSAGE_COMPONENT, world.alice.user, data, message=message))
    assert said("input.component_unknown", "en-US") in text


@pytest.mark.parametrize("values", [["abc"], ["1 OR 1=1"], ["²"], [" 2"]])
def test_panel_menu_with_a_value_it_does_not_offer(world: World, values: list[str]) -> None:
    """The panel read its menus' values with int(): a value no option has broke it."""
    world.do(world.to_dusk())
    panel = world.do(world.alice.command("orders"))
    found = panel.find("wh:atk:")
    assert found is not None, panel.text
    message, custom_id = found
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    _, text = refused(world, world.forge(MESSAGE_COMPONENT, world.alice.user, data, message=message))
    assert said("input.component_value", "en-US") in text


# -- anything at all -----------------------------------------------------------------


def leaves(world: World) -> list[tuple[str, Any]]:
    """Every command the bot registers, by its path, with the command."""
    out: list[tuple[str, Any]] = []

    def walk(cmd: Any, prefix: str) -> None:
        path = f"{prefix} {cmd.name}".strip()
        children = getattr(cmd, "commands", None)
        if children is None:
            out.append((path, cmd))
        else:
            for child in children:
                walk(child, path)

    assert world.tavern.bot is not None
    for cmd in world.tavern.bot.tree.get_commands():
        walk(cmd, "")
    return sorted(out, key=lambda x: x[0])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
OPTION_TYPES = [3, 4, 5, 6, 7, 8, 9, 10, 11]


def wrong_for(param: Any) -> st.SearchStrategy[dict[str, Any]]:
    """An option for ``param`` that Discord would not send."""
    kind = param.type.value
    name = param.display_name
    by_type = {
        3: JSON.filter(lambda v: not isinstance(v, str)) | st.just("x" * 6001),
        4: JSON.filter(lambda v: not isinstance(v, int) or isinstance(v, bool) or not (param.min_value or -(2**53)) <= v <= (param.max_value or 2**53)),
        5: JSON.filter(lambda v: not isinstance(v, bool)),
        6: JSON | st.integers(1, 2**60).map(str),  # an id without resolved data, or no id
    }
    wrong_value = st.builds(lambda v: {"name": name, "type": kind, "value": v}, by_type.get(kind, JSON))
    wrong_type = st.builds(lambda k, v: {"name": name, "type": k, "value": v}, st.sampled_from([k for k in OPTION_TYPES if k != kind]), JSON)
    strategies = [wrong_value, wrong_type, st.just({"name": name, "type": kind})]
    if param.choices:
        offered = [c.value for c in param.choices]
        strategies.append(st.builds(lambda v: {"name": name, "type": kind, "value": v}, st.text(max_size=12).filter(lambda v: v not in offered)))
    return st.one_of(strategies)


@st.composite
def command_payloads(draw: st.DrawFn, world: World, path: str, cmd: Any) -> tuple[str, dict[str, Any], bool]:
    """``/path`` with its options with one Discord would not send (or an unknown name, a
    duplicate, a required one left out, an unknown command), and maybe more of any
    kind; whether it is an autocomplete."""
    params = list(cmd.parameters)
    flaw = draw(st.sampled_from(["value", "unknown", "duplicate", "missing", "command", "focused"]))
    options: list[dict[str, Any]] = []
    autocomplete = False
    if flaw == "value" and params:
        options.append(draw(wrong_for(draw(st.sampled_from(params)))))
    elif flaw == "duplicate" and params:
        p = draw(st.sampled_from(params))
        options += [{"name": p.display_name, "type": p.type.value, "value": draw(JSON)}] * 2
    elif flaw == "missing" and any(p.required for p in params):
        pass  # and nothing else required is given below
    elif flaw == "focused" and any(p.autocomplete for p in params):
        p = draw(st.sampled_from([p for p in params if p.autocomplete]))
        autocomplete = True
        options.append({"name": p.display_name, "type": p.type.value, "value": draw(JSON), "focused": True})
    else:
        options.append({"name": draw(st.text(max_size=12).filter(lambda n: n not in {p.display_name for p in params})), "type": draw(st.sampled_from(OPTION_TYPES)), "value": draw(JSON)})
    for p in draw(st.lists(st.sampled_from(params), max_size=3, unique_by=lambda p: p.display_name)) if params else []:
        if (flaw == "missing" and p.required) or any(o.get("name") == p.display_name for o in options):
            continue
        options.append({"name": p.display_name, "type": draw(st.sampled_from(OPTION_TYPES)), "value": draw(JSON)})
    data = world.command_data(path, draw(st.permutations(options)))
    if draw(st.booleans()):
        data["resolved"] = draw(st.just({}) | st.dictionaries(st.sampled_from(["users", "members", "roles"]), st.just({}), max_size=2))
    if flaw == "command":
        if draw(st.booleans()) or len(path.split()) == 1:
            data["name"] = draw(st.text(max_size=12).filter(lambda n: n not in {p.split()[0] for p, _ in leaves(world)}))
        else:
            data["options"] = [{**data["options"][0], "name": draw(st.text(max_size=12))}]
    return path, data, autocomplete


@st.composite
def component_payloads(draw: st.DrawFn, found: list[tuple[Message, dict[str, Any]]]) -> tuple[Message, dict[str, Any]]:
    """A use of one of ``found`` (components of the bot's messages, each with its
    message) that Discord would not send: an id no item has, one not on the message, a
    menu value it does not offer (or too many, or none), values on a button, the wrong
    component type."""
    message, component = draw(st.sampled_from(found))
    custom_id = component["custom_id"]
    flaw = draw(st.sampled_from(["id", "numbers", "values", "type"]))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
    if flaw == "id":
        data["custom_id"] = draw(st.text(max_size=120) | st.from_regex(r"wh:[a-z]{1,8}:[0-9]{1,30}(:[0-9]{1,30})?", fullmatch=True))
    elif flaw == "numbers":
        head = ":".join(custom_id.split(":")[:2])
        tail = draw(st.lists(st.integers(0, 10**26).map(str), min_size=1, max_size=4))
        data["custom_id"] = ":".join([head, *tail])
        if data["custom_id"] == custom_id:
            data["custom_id"] += ":0"
    elif flaw == "values" or component["type"] != 3:
        offered = {o["value"] for o in component.get("options", [])}
        bad = st.text(max_size=8).filter(lambda v: v not in offered)
        data["values"] = draw(st.lists(bad, min_size=1, max_size=3) | st.just([]) | st.just(sorted(offered) * 2))
    else:
        data["component_type"] = draw(st.sampled_from([2, 5, 6, 7, 8]))
    return message, data


@st.composite
def form_payloads(draw: st.DrawFn, game_id: int, user_id: int) -> dict[str, Any]:
    """A form submission Discord would not send: another form's id, or the grail form
    (the bot's one form) with its field missing, not text, or longer than the form
    allows."""
    grail = f"wh:grailmodal:{game_id}:1:{user_id}"
    custom_id = draw(st.just(grail) | st.text(max_size=40) | st.from_regex(r"wh:grailmodal:[0-9]{1,30}:[0-9]{1,30}:[0-9]{1,30}", fullmatch=True))
    value = draw(st.text(min_size=4, max_size=10) | JSON.filter(lambda v: not isinstance(v, str)))
    fields = draw(
        st.just([])
        | st.just([{"type": 1, "components": [{"type": 4, "custom_id": "number", "value": value}]}])
        | st.just([{"type": 1, "components": [{"type": 4, "value": "5"}]}])
        | st.lists(JSON, max_size=2)
    )
    if custom_id == grail and fields == [{"type": 1, "components": [{"type": 4, "custom_id": "number", "value": value}]}] and isinstance(value, str) and len(value) <= 3:
        fields = []
    return {"custom_id": custom_id, "components": fields}


# How many payloads Hypothesis throws at each command, at each kind of component and at
# the forms: a fixed number each, so that a command added later is tried as much as any.
EXAMPLES = 30


def kind_of(custom_id: str) -> str:
    """A component's kind: its custom id's second word (``wh:replay:12`` is ``replay``)."""
    return custom_id.split(":")[1]


def with_components(message: Message, view: discord.ui.View) -> Message:
    """``message`` carrying ``view``'s components, as the bot builds them."""
    return dataclasses.replace(message, components=view.to_components())


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# The kinds of component the bot posts (a custom id's second word), each tried: the
# lobby post's Join and Leave, the phase posts' Table, the DM prompts' panel and grail
# buttons, the order panel's menus and buttons (at Dusk: attack, skill, identify,
# clear, refresh), the leaderboard's and the history's pages, /mod end's confirmation
# (a running game's, a lobby's), /stats forget's, a finished game's Replay, a standby's
# Accept, a spectator's prediction, the Morning's vote menu.
KINDS = (
    "join", "leave", "table", "open", "grail", "atk", "skill", "idp", "clr", "refresh",
    "lb", "hist", "end", "cancel", "forget", "replay", "offer", "predict", "vote",
)  # fmt: skip


def components_shown(world: World) -> dict[str, list[tuple[Message, dict[str, Any]]]]:
    """Every kind of message the bot posts with buttons or menus, with their components
    by kind. Most are the real messages of the module's game (the lobby post, the phase
    posts and their Table button, the DM prompts, the order panel, the leaderboard, the
    forget and end confirmations); the ones its running game has not reached (a
    finished game's Replay, the history's pages, a standby's offer, a spectator's
    prediction, a lobby's Join, Leave and cancel, the Morning's vote menu: the game
    stays at its Dusk) are the bot's own views on a copy of one of its replies."""
    alice, mod = world.alice, world.game.moderator
    game_id = world.game.game_id
    assert game_id is not None
    replies = [world.do(alice.command(path)) for path in ("orders", "leaderboard", "stats forget")]
    replies.append(world.do(mod.command("mod end")))
    messages = [m for r in replies for m in r.messages if m.components]
    messages += [m for m in world.tavern.public(world.channel) if m.components]
    messages += [m for m in world.tavern.dms(alice.user) if m.components]
    base = replies[1].messages[0]
    guild_id = world.channel.guild_id
    assert guild_id is not None
    built = [
        view_of(JoinButton(game_id), LeaveButton(game_id), ConfirmButton(CancelGame(game_id=game_id))),
        replay_view(game_id, "en-US"),
        history_view(guild_id, HistoryPage(games=(), page=2, pages=3, total=25), "en-US"),
        offer_view(1, "en-US"),
        predict_view(game_id, 1, "en-US"),
        view_of(VoteSelect(game_id, 1, "en-US", [discord.SelectOption(label=f"#{n}", value=str(n)) for n in (2, 3)])),
    ]
    messages += [with_components(base, v) for v in built if v is not None]
    kinds: dict[str, list[tuple[Message, dict[str, Any]]]] = {}
    for m in messages:
        for c in (c for row in m.components for c in row.get("components", [row])):
            if c.get("custom_id", "").startswith("wh:"):
                kinds.setdefault(kind_of(c["custom_id"]), []).append((m, c))
    return kinds


def test_arbitrary_payloads_are_refused(world: World) -> None:
    """Every command, every kind of component the bot puts on a message, the forms:
    arbitrary payloads that Discord would not send, ``EXAMPLES`` of each, from players in
    the game's channel and by DM, its moderator, and a stranger (not a member of the
    game's server) in a server of theirs and by DM. Each is answered (a refusal, or an
    autocomplete's list), no ERROR is logged, nothing is stored."""
    world.do(world.to_dusk())
    kinds = components_shown(world)
    assert set(KINDS) <= set(kinds), sorted(kinds)
    stranger = world.tavern.emu.create_user("stranger", locale="zh-CN")
    rival = world.tavern.emu.create_guild("Rival Inn", owner=stranger, channels=("bar",))
    bar = next(c for c in rival.channels.values() if c.name == "bar")
    dm = world.tavern.emu.dm_channel
    alice, amin, mod = world.alice.user, world.amin.user, world.game.moderator.user
    senders = [(alice, world.channel), (amin, world.channel), (mod, world.channel), (alice, dm(alice)), (stranger, bar), (stranger, dm(stranger))]
    world.do(world.tavern.drained())
    game_id = world.game.game_id
    assert game_id is not None
    before = world.do(world.stored())
    seen = len(world.errors.records)
    answered: dict[str, int] = {}

    def explore(name: str, payloads: st.SearchStrategy[Any], send: Callable[[Any, User, Channel], Awaitable[InteractionResult]]) -> None:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
        @given(payloads, st.sampled_from(senders))
        def attempt(payload: Any, sender: tuple[User, Channel]) -> None:
            result = world.do(send(payload, *sender))
            assert result.is_final(), (name, payload, result)
            if result.response_type != AUTOCOMPLETE_RESULT:
                assert result.message is not None and result.message.ephemeral and reader.is_error(result.message), (name, payload, result.message)
            assert world.errors.records[seen:] == [], (name, payload, [r.getMessage() for r in world.errors.records[seen:]])
            assert world.do(world.stored()) == before, (name, payload)
            answered[name] = answered.get(name, 0) + 1

        attempt()

    def command(what: tuple[str, dict[str, Any], bool], user: User, where: Channel) -> Awaitable[InteractionResult]:
        _, data, autocomplete = what
        return world.forge(AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND, user, data, where=where)

    def component(what: tuple[Message, dict[str, Any]], user: User, where: Channel) -> Awaitable[InteractionResult]:
        message, data = what
        return world.forge(MESSAGE_COMPONENT, user, data, message=message, where=where)

    def form(what: dict[str, Any], user: User, where: Channel) -> Awaitable[InteractionResult]:
        return world.forge(MODAL_SUBMIT, user, what, where=where)

    paths = leaves(world)
    for path, cmd in paths:
        explore(f"/{path}", command_payloads(world, path, cmd), command)
    for kind, found in sorted(kinds.items()):
        explore(kind, component_payloads(found), component)
    explore("forms", form_payloads(game_id, alice.id), form)
    assert len(answered) == len(paths) + len(kinds) + 1
    short = {name: n for name, n in answered.items() if n < EXAMPLES}
    assert short == {}, short
    assert world.tavern.emu.server_errors == []


# -- a float is never a grail number, whatever path it takes -------------------------


@pytest.mark.parametrize("number", [50.5, 50.0, True])
def test_the_engine_takes_only_a_whole_grail_number(number: Any) -> None:
    """The engine checked the range only: 50.5 passed, was stored as sent, and was cut
    to 50 when the Day was resolved."""
    from engine import new_game
    from engine.errors import MalformedSubmissionError, OutOfRangeError
    from engine.submissions import GrailNumber, submission_from_dict
    from engine.validate import validate

    state = new_game([f"p{i}" for i in range(6)], "input")
    with pytest.raises(OutOfRangeError):
        validate(state, 1, GrailNumber(number))
    with pytest.raises(MalformedSubmissionError):
        submission_from_dict({"kind": "grail", "number": number})
    assert validate(state, 1, GrailNumber(50)) == GrailNumber(50)
