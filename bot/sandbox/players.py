"""Scripted players at the table (the moderator and what every person does with the bot
are :mod:`bot.sandbox.people`): they use the bot only as people do — slash commands with
options (typed, or picked by autocomplete), buttons, select menus and modals — and
decide only from what they read.

A player reads three things: the game channel (phase posts, departures, the vote), its
own DMs (its character sheet, its private news) or, with closed DMs, ``/inbox``, and the
ephemeral answers to its own commands (``/me``). :mod:`bot.sandbox.play_reader` turns that
text back into facts, which feed the AI's :class:`~bot.ai.knowledge.Knowledge`;
the baseline :class:`~bot.ai.player.BaselineAI` then decides, exactly as it does in
``wolfhowl simulate``. The database and the engine state are never looked at.

Styles vary by player (drawn from the seed): *typers* write commands and type names or
seat numbers, sometimes completing them with autocomplete; *clickers* open the order
panel ("My orders" on the phase post, or ``/orders``) and use its menus and the grail
number form. Some act in their DMs with the bot, others in the game channel (answers
there are ephemeral). Chinese-speaking players type the commands' Chinese names.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from bot.ai.knowledge import Knowledge
from bot.ai.player import BaselineAI
from bot.i18n import normalize_locale
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Person, Reply, Stats
from bot.sandbox.play_table import Cursor, Tavern
from discord_emulator import Message, User
from engine.classes import class_spec
from engine.events import Audience, Event
from engine.submissions import Action, Guess, Identification, Orders


class Player(Person):
    """One seat: joins, reads, decides with the baseline AI, and sends by command or panel."""

    def __init__(
        self,
        tavern: Tavern,
        user: User,
        channel: Any,
        stats: Stats,
        *,
        seed: str,
        style: str | None = None,
        in_dm: bool | None = None,
        lean: bool = False,
    ) -> None:
        self.rng = random.Random(
            int.from_bytes(hashlib.sha256(f"{seed}|{user.username}".encode()).digest()[:8], "big")
        )
        style = style or ("clicker" if self.rng.random() < 0.3 else "typer")
        in_dm = self.rng.random() < 0.6 if in_dm is None else in_dm
        if lean:
            style, in_dm = "typer", True
        super().__init__(tavern, user, channel, stats, in_dm=in_dm)
        self.lean = lean  # the fewest interactions: typed ids and seat numbers, no lookups
        self.style = style
        self.seed = seed
        bot_id = tavern.emu.bot_user.id
        self.public = Cursor(
            tavern.index, channel.id, lambda m: m.author.id == bot_id and not m.ephemeral
        )
        dm = tavern.emu.dm_channel(user)
        self.private = Cursor(
            tavern.index, dm.id, lambda m: m.author.id == bot_id and m.interaction_id is None
        )
        self.ping_pending = False
        self._inbox_phase: tuple[int, str | None] | None = None  # the phase whose inbox was read
        self.inbox_messages: list[Message] = []  # the new messages /inbox showed, in order
        self.seat: int | None = None
        self.table: list[dict[str, Any]] | None = None
        self.sheet: dict[str, Any] | None = None
        self.k: Knowledge | None = None
        self.ai: BaselineAI | None = None
        self.pending: list[tuple[int, reader.Fact]] = []
        self.alive = True
        self.over = False
        self.round = 0
        self.phase: str | None = None
        self.news_round = 0
        self.game_id: int | None = None
        self._panel: Message | None = None

    # -- joining -------------------------------------------------------------------
    async def join(self, lobby: Message | None) -> Reply:
        """Press Join on the lobby post (clickers) or type /game join in the channel."""
        found = lobby and next((c for c in lobby.custom_ids() if c.startswith("wh:join:")), None)
        if self.style == "clicker" and lobby is not None and found:
            return await self.click(lobby, found)
        return await self.command("game join", in_dm=False)

    # -- reading -------------------------------------------------------------------
    async def read(self) -> None:
        """Take in whatever arrived since the last look."""
        for m in self.public.new():
            self._public(m)
        if self.user.dms_closed:
            # As the ping asks: look in /inbox in every phase (the news of a phase comes
            # with it, and no ping says so, which would tell the table who got news).
            if self.ping_pending or self.sheet is None or self._inbox_phase != (self.round, self.phase):
                self._inbox_phase = (self.round, self.phase)
                await self._read_inbox()
        else:
            for m in self.private.new():
                self._private(m)
        self._flush()

    def _public(self, m: Message) -> None:
        if self.table is None:
            rows = reader.table_of(m)
            if rows is not None:
                self.table = rows
                mine = [r["seat"] for r in rows if r["name"] == self.name]
                if len(mine) == 1:
                    self.seat = mine[0]
        if f"<@{self.user.id}>" in (m.content or "") and reader.match(
            "reply.post.inbox_ping", m.content or ""
        ):
            self.ping_pending = True
        got = reader.phase_post(m)
        if got is not None:
            self.phase, self.round = got
        if reader.is_game_over(m):
            self.over = True
        for fact in reader.public_facts(m):
            if fact.kind == "SeatHandedOver":
                self._renamed(fact.data["seat"], fact.data["name"])
                continue
            self.pending.append((self.round, fact))

    def _renamed(self, seat: int, name: str) -> None:
        """The table's line "X takes over seat N from Y": seat N goes by X from now on
        (a name typed for it, or looked up in autocomplete, is the new one)."""
        for row in self.table or []:
            if row["seat"] == seat:
                row["name"] = name

    def _private(self, m: Message) -> None:
        seat = reader.sheet_intro_seat(m)
        if seat is not None and self.seat is None:
            self.seat = seat
        sheet = reader.read_sheet(m, self.seat)
        if sheet is not None:
            self._take_sheet(sheet)
            return
        for e in m.embeds:
            got = reader.news_title(str(e.get("title") or ""))
            if got and got["round"].isdigit():
                self.news_round = int(got["round"])
        for fact in reader.private_facts(m):
            self.pending.append((self.news_round or self.round, fact))

    async def _read_inbox(self) -> None:
        """/inbox shows the messages not seen yet (a page at a time) and marks them seen;
        "use /inbox again" means there are more."""
        for _ in range(20):
            reply = await self.command("inbox")
            self.ping_pending = False
            if reply.error:
                return
            heads = [m.content or "" for m in reply.messages if m.content]
            if not any(reader.match("reply.inbox.title", h) for h in heads):
                return  # empty, or nothing new
            self.inbox_messages.extend(reply.messages)
            for m in reply.messages:
                for e in m.embeds:
                    self._private(
                        Message(id=0, channel_id=0, guild_id=None, author=m.author, embeds=[e])
                    )
            if not any(reader.match("reply.inbox.more", h) for h in heads):
                return

    def _take_sheet(self, sheet: dict[str, Any]) -> None:
        if sheet.get("seat"):
            self.seat = sheet["seat"]
        elif self.seat is not None:
            sheet["seat"] = self.seat
        else:
            return
        self.sheet = sheet
        if not sheet["alive"]:
            self.alive = False
        if self.k is None and self.table is not None:
            self.k = Knowledge(sheet, self.table)
            self.ai = BaselineAI(random.Random(self.rng.random()), len(self.table))
        elif self.k is not None:
            self.k.update_sheet(sheet)

    def _flush(self) -> None:
        """Feed what was read to the Knowledge (held back until it exists)."""
        if self.k is None:
            if self.sheet is not None and self.table is not None:
                self._take_sheet(self.sheet)
            if self.k is None:
                return
        k, seat = self.k, self.seat
        for round_no, fact in self.pending:
            d = fact.data
            if fact.kind in ("PlayerLeft", "FactionWipedOut", "VotesCounted"):
                k.see(Event(fact.kind, Audience.PUBLIC, None, d))
                if fact.kind == "PlayerLeft" and d["seat"] == seat:
                    self.alive = False
            elif fact.kind in (
                "IdentificationAnswered",
                "DamageTaken",
                "Recovered",
                "Healed",
                "BardicKnowledge",
                "SpeakWithDead",
                "YouDied",
            ):
                k.see(Event(fact.kind, Audience.PRIVATE, seat, d))
                if fact.kind == "YouDied":
                    self.alive = False
            elif fact.kind == "GrailWon":
                k.see(Event("GrailWon", Audience.PRIVATE, seat, {"round": round_no}))
            elif fact.kind == "WoundedNow":
                k.see(Event("DamageTaken", Audience.PRIVATE, seat, {"hp": 0}))
        self.pending.clear()

    # -- playing -------------------------------------------------------------------
    async def turn(self, phase: str, round_no: int) -> None:
        """Everything this player does in one phase."""
        await self.read()
        if not self.alive or self.over:
            return
        if self.k is None:
            await self.refresh_sheet()
        if self.k is None or self.ai is None:
            return
        self.k.set_phase(round_no, phase)
        self._panel = None
        if phase == "day":
            await self.send_grail(self.ai.grail_number(self.k).number)
        elif phase == "dusk":
            await self.dusk(round_no)
        elif phase == "morning":
            vote = self.ai.vote(self.k)
            if vote is not None:
                await self.send_vote(vote.target)

    async def refresh_sheet(self) -> None:
        """/me: my sheet as it is now (HP, states, class memory, what I know)."""
        reply = await self.command("me")
        for m in reply.messages:
            sheet = reader.read_sheet(m)
            if sheet is not None:
                self._take_sheet(sheet)
                self._flush()
                return

    def _wants_sheet(self, round_no: int) -> bool:
        """Whether to look at /me before deciding tonight: the first night, and every
        night for a class whose sheet carries what its news does not (spell points, the
        wolf's HP, a ready cleave, a hold, its own fatigue). HP, the grail and answers
        come by DM; once-per-game skills the player remembers ordering."""
        if round_no == 1 or self.sheet is None:
            return True
        if self.lean:
            return self.sheet["class_id"] in ("sorcerer", "warrior", "monk")
        return self.sheet["class_id"] in ("sorcerer", "druid", "warrior", "monk", "barbarian")

    async def dusk(self, round_no: int) -> None:
        if self._wants_sheet(round_no):
            await self.refresh_sheet()
        assert self.k is not None and self.ai is not None
        if not self.alive:
            return
        subs = self.ai.dusk(self.k)
        accepted: list[Guess] = []
        for sub in subs:
            if isinstance(sub, Identification):
                for g in sub.guesses:
                    if await self.send_guess(g):
                        accepted.append(g)
        self.k.note_sent([Identification(tuple(accepted))])
        ordered = False
        for sub in subs:
            if isinstance(sub, Orders):
                for toggle in sorted(sub.toggles):
                    ordered = await self.send_toggle(toggle) or ordered
                for action in sub.actions:
                    if await self.send_action(action):
                        ordered = True
                        self._remember_use(action.skill)
        if not ordered:
            # Nothing to do tonight (or wounded): say so, so the table need not wait.
            await self.command("orders", {"clear": "pass"})

    def _remember_use(self, skill_id: str) -> None:
        for s in (self.sheet or {}).get("skills", ()):
            if s["id"] == skill_id and "once" in s["kinds"]:
                s["used"] = True

    # -- sending: each by command or by the panel ----------------------------------
    def _seat_name(self, seat: int) -> str:
        return next((r["name"] for r in self.table or [] if r["seat"] == seat), str(seat))

    async def _player_option(
        self, path: str, option: str, seat: int, others: dict[str, Any] | None = None
    ) -> str:
        """The value of a player option, as this person gives it: the seat number, the
        name typed out, or a name started and completed from the autocomplete list."""
        how = self.rng.random()
        if self.lean:
            return str(seat)
        if how < 0.15:
            name = self._seat_name(seat)
            for c in await self.complete(path, option, name[:2], others):
                if c["name"].startswith(f"#{seat} "):
                    return str(c["value"])
        return str(seat) if how < 0.6 else self._seat_name(seat)

    async def panel(self) -> Reply | None:
        """My order panel, opened once a phase (the button on the phase post, or
        /orders) and then used in place: each menu redraws it."""
        if self._panel is not None:
            current = self.emu.ctx.world.messages.get(self._panel.id)
            if current is not None and not current.deleted and current.custom_ids():
                return Reply(None, [current], reader.message_text(current), False)
        opened: Reply | None = None
        if not self.in_dm:
            posts = [
                m
                for m in self.tavern.public(self.channel)
                if reader.phase_post(m) == (self.phase, self.round)
            ]
            button = next(
                (c for c in posts[-1].custom_ids() if c.startswith("wh:open:")), None
            ) if posts else None
            if button:
                opened = await self.click(posts[-1], button)
        if opened is None:
            opened = await self.command("orders")
        if opened.error or not opened.messages:
            return None
        self._panel = opened.messages[-1]
        return opened

    async def _by_panel(self, prefix: str) -> tuple[Message, str] | None:
        opened = await self.panel()
        return opened.find(prefix) if opened is not None else None

    async def send_grail(self, number: int) -> bool:
        if self.style == "clicker":
            found = await self._by_panel("wh:grail:")
            if found:
                form = await self.click(*found)
                if form.result is not None and form.result.modal:
                    field_id = _text_input_id(form.result.modal)
                    return not (await self.submit_form(form, {field_id: str(number)})).error
        return not (await self.command("grail", {"number": number})).error

    async def send_vote(self, seat: int) -> bool:
        if self.style == "clicker":
            found = await self._by_panel("wh:vote:")
            if found and str(seat) in _option_values(*found):
                return not (await self.select(*found, [str(seat)])).error
        return not (
            await self.command(
                "vote", {"player": await self._player_option("vote", "player", seat)}
            )
        ).error

    async def send_guess(self, g: Guess) -> bool:
        want = f"{g.what}:{g.value}"
        if self.style == "clicker":
            found = await self._by_panel("wh:idp:")
            if found and str(g.target) in _option_values(*found):
                asked = await self.select(*found, [str(g.target)])
                nxt = asked.find("wh:idg:")
                if nxt and want in _option_values(*nxt):
                    return not (await self.select(*nxt, [want])).error
        player = await self._player_option("identify", "player", g.target)
        from bot.i18n import terms

        typed = terms.guess_value(g.what, g.value, self.locale)
        guess = want if self.lean else typed
        if self.rng.random() < 0.25 and not self.lean:
            # Start typing the thing's name and take it from the list.
            choices = await self.complete("identify", "guess", typed[:2], {"player": player})
            guess = next((str(c["value"]) for c in choices if c["value"] == want), typed)
        return not (await self.command("identify", {"player": player, "guess": guess})).error

    async def send_toggle(self, skill: str) -> bool:
        if self.style == "clicker":
            found = await self._by_panel("wh:skill:")
            if found and skill in _option_values(*found):
                return not (await self.select(*found, [skill])).error
        return not (
            await self.command("act skill", {"skill": await self._skill_option(skill)})
        ).error

    async def _skill_option(self, skill: str) -> str:
        """The skill's name typed out, started and picked from the list, or its id."""
        how = self.rng.random()
        if self.sheet is None or skill in ("attack", "release") or self.lean:
            return skill
        spec = class_spec(self.sheet["class_id"]).skill(skill)
        if spec is None or how < 0.2:
            return skill
        name = spec.name[normalize_locale(self.locale)]  # type: ignore[index]
        if how < 0.35:
            for c in await self.complete("act skill", "skill", name[:3]):
                if c["value"] == skill:
                    return skill
        return name

    async def send_action(self, action: Action) -> bool:
        if self.style == "clicker" and await self._action_by_panel(action):
            return True
        if action.skill == "attack":
            player = await self._player_option("act attack", "player", action.targets[0])
            return not (await self.command("act attack", {"player": player})).error
        options: dict[str, Any] = {"skill": await self._skill_option(action.skill)}
        for name, seat in zip(("target", "target2", "target3"), action.targets, strict=False):
            options[name] = str(seat) if self.rng.random() < 0.5 else self._seat_name(seat)
        if action.amount is not None:
            options["amount"] = action.amount
        return not (await self.command("act skill", options)).error

    async def _action_by_panel(self, action: Action) -> bool:
        targets = [str(s) for s in action.targets]
        if action.skill == "attack":
            found = await self._by_panel("wh:atk:")
            if found and targets[0] in _option_values(*found):
                return not (await self.select(*found, targets)).error
            return False
        found = await self._by_panel("wh:skill:")
        if not found or action.skill not in _option_values(*found):
            return False
        step = await self.select(*found, [action.skill])
        if step.error:
            return False
        if action.targets:
            nxt = step.find("wh:skt:")
            if not nxt or not set(targets) <= set(_option_values(*nxt)):
                return False
            step = await self.select(*nxt, targets)
            if step.error:
                return False
        if action.amount is not None:
            amt = step.find("wh:amt:") or (
                _fresh(self.emu, step.messages[-1], "wh:amt:") if step.messages else None
            )
            if not amt or str(action.amount) not in _option_values(*amt):
                return False
            return not (await self.select(*amt, [str(action.amount)])).error
        return True


def _option_values(message: Message, custom_id: str) -> list[str]:
    from discord_emulator.state import iter_components

    for c in iter_components(message.components):
        if c.get("custom_id") == custom_id:
            return [str(o["value"]) for o in c.get("options") or []]
    return []


def _fresh(emu: Any, message: Message, prefix: str) -> tuple[Message, str] | None:
    """The component ``prefix``… on the latest version of ``message`` (edited in place)."""
    current = emu.ctx.world.messages.get(message.id, message)
    for cid in current.custom_ids():
        if cid.startswith(prefix):
            return current, cid
    return None


def _text_input_id(modal: dict[str, Any]) -> str:
    from discord_emulator.state import iter_components

    for c in iter_components(modal.get("components") or []):
        if c.get("type") == 4:
            return str(c["custom_id"])
    raise ValueError("the form has no text field")
