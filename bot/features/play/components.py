"""The order panel: the same submissions as the slash commands, by select menus and
buttons, for players who would rather not type.

``/orders`` (or the button on a phase post or a reminder) shows the caller what they have
sent this phase with the components for that phase. Each component's custom id carries
the game and the round it was drawn for (and, in the two-step menus, the skill or seat
already chosen); anything else is read from the database when it is used. A component
from a phase that has closed is refused by the service, never applied to the next one.
A component that sends something redraws the panel from the view its receipt carries
(read in the submission's own unit of work), not from a second read.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord

import engine
from bot.core.errors import GameFinishedError
from bot.core.messages import PhasePrompt, PhaseStarted, Reminder
from bot.core.messages import Sheet as SheetPost
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo, PlayerView
from bot.core.views import require_open_for
from bot.discord import first_response, payload
from bot.discord.context import locale_of
from bot.discord.errors import ReplyError, guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.play import cog_submit as submit
from bot.features.play.cog_choices import (
    guess_label,
    guess_options,
    may_flip,
    orderable_skills,
    skill_label,
)
from bot.features.play.commands import (
    AddAction,
    AddGuess,
    SendGrail,
    SendSubmission,
    SendVote,
    ToggleSkill,
)
from bot.features.play.look import sent_embed
from bot.features.prompts.look import still_open
from bot.features.table_view.components import TableButton
from bot.i18n import t
from bot.render import words
from bot.render.outgoing import RENDERERS, private
from bot.render.replies import names_of
from engine.classes import class_spec
from engine.view import Sheet

G = rf"(?P<game>{NUMBER})"
R = rf"(?P<round>{NUMBER})"


def _others(pv: PlayerView, *, include_self: bool = False) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=words.seat_name(p.seat, p.name)[:100], value=str(p.seat))
        for p in pv.game.players
        if p.seat is not None and p.alive and (include_self or p.seat != pv.seat)
    ][:25]


def panel_view(pv: PlayerView, locale: str) -> discord.ui.View:
    """The components for the open phase (none when the caller cannot act)."""
    view = discord.ui.View(timeout=None)
    g, r = pv.game.id, pv.game.round
    alive = bool(pv.sheet and pv.sheet["alive"])
    if pv.game.status != "running" or not alive or pv.seat is None:
        return view
    players = _others(pv)
    if pv.game.phase == "day":
        view.add_item(GrailButton(g, r, locale))
    elif pv.game.phase == "morning" and players:
        view.add_item(VoteSelect(g, r, locale, players))
    elif pv.game.phase == "dusk":
        assert pv.sheet is not None
        if players and not pv.sheet["wounded"]:
            view.add_item(AttackSelect(g, r, locale, players))
        skills = [
            discord.SelectOption(label=skill_label(pv.sheet["class_id"], s, locale)[:100], value=s if isinstance(s, str) else s.id)
            for s in orderable_skills(pv.sheet)
        ][:25]
        if skills and not pv.sheet["wounded"]:
            view.add_item(SkillSelect(g, r, locale, skills))
        if players:
            view.add_item(IdentifySelect(g, r, locale, players))
        view.add_item(ClearButton(g, r, "pass", locale))
        view.add_item(ClearButton(g, r, "orders", locale))
        view.add_item(ClearButton(g, r, "identify", locale))
    view.add_item(RefreshButton(g, locale))
    return view


def prompt_view(game: GameInfo | None, round_no: int, phase: str, seat: int, sheet: Sheet, locale: str) -> discord.ui.View | None:
    """A phase prompt's controls: the panel of ``phase`` of ``round_no`` for ``seat``, drawn
    from its sheet as the phase opened (nothing sent yet). None once that phase has
    closed (a prompt delivered late: ``prompts.look.still_open``). Drawn while the game is
    paused too: a control used then is refused as the command would be, and works once
    the game resumes."""
    if game is None or not still_open(game, round_no, phase):
        return None
    pv = PlayerView(game=dataclasses.replace(game, status="running"), seat=seat, sheet=sheet, sent={})
    return panel_view(pv, locale)


def phase_post_view(game_id: int, locale: str) -> discord.ui.View:
    """On a phase's post, a sheet and a private reminder: the buttons that open the
    reader's own panel and the table."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanelButton(game_id, locale))
    view.add_item(TableButton(game_id, locale))
    return view


async def show_panel(interaction: discord.Interaction, game_id: int, *, edit: bool = False, pv: PlayerView | None = None) -> None:
    """Answer with (or, from a panel component, redraw) the caller's panel; ``pv``: the
    caller's view when it has just been read (a receipt's), else it is read here."""
    locale = locale_of(interaction)
    await first_response.begin(interaction, idempotent=True, update=edit)
    if pv is None:
        pv = await submit.view_of(interaction.client, interaction.user.id, game_id)  # type: ignore[arg-type]
    if pv.game.status in ("over", "cancelled"):
        # "My orders" on an old phase post: nothing to send, no deadline, and no panel.
        raise GameFinishedError(game_id=game_id)
    class_id = pv.sheet["class_id"] if pv.sheet else None
    embed = sent_embed(pv.sent, pv.game, class_id, locale, unread=pv.unread)
    if edit:
        await first_response.update(interaction, embed=embed, view=panel_view(pv, locale))
    else:
        await first_response.reply(interaction, embed=embed, view=panel_view(pv, locale), ephemeral=True)


class _Item(Checked):
    """Mixin of the panel's one-step components: ``act`` (one submission), then redraw
    the panel in place, all with the one error handler; acknowledged first only when that
    takes a while, unless the submission is not ``idempotent``. ``act`` returns the
    caller's view when it has it (a receipt's), so the redraw reads nothing again."""

    game_id: int
    round_no: int
    # Its submission is the same made twice (bot.discord.first_response): answered at
    # once when quick.
    idempotent = True

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await first_response.begin(interaction, idempotent=self.idempotent, update=True)
            pv = await self.act(interaction)
            await show_panel(interaction, self.game_id, edit=True, pv=pv)

        await guarded(interaction, run)

    async def player_view(self, interaction: discord.Interaction) -> PlayerView:
        return await submit.view_of(interaction.client, interaction.user.id, self.game_id)  # type: ignore[arg-type]


class OpenPanelButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:open:{G}"):
    """On public phase posts and reminders: opens the presser's own panel."""

    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(discord.ui.Button(label=t("ui.open_panel", locale), emoji="📜", style=discord.ButtonStyle.primary, custom_id=f"wh:open:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> OpenPanelButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_panel(interaction, self.game_id))


class RefreshButton(_Item, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:refresh:{G}"):
    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(label=t("ui.refresh", locale), emoji="🔄", style=discord.ButtonStyle.secondary, custom_id=f"wh:refresh:{game_id}"))
        self.game_id, self.round_no = game_id, 0

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> RefreshButton:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        return None


class GrailButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:grail:{G}:{R}"):
    def __init__(self, game_id: int, round_no: int, locale: str = "en-US") -> None:
        super().__init__(discord.ui.Button(label=t("ui.grail", locale), emoji="🏆", style=discord.ButtonStyle.success, custom_id=f"wh:grail:{game_id}:{round_no}"))
        self.game_id, self.round_no = game_id, round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> GrailButton:
        return cls(int(match["game"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: open_grail_form(interaction, self.game_id, self.round_no))


GRAIL_FORM = re.compile(rf"wh:grailmodal:{G}:{R}:(?P<user>{NUMBER})")
GRAIL_LENGTH = 3  # the form's field: at most "100"


class GrailModal(discord.ui.Modal):
    """The grail-number form. Only drawn here: its answer is handled from its custom id
    by ``grail_form_submitted``, like the buttons, because discord.py keeps an open form
    only in the memory of the process that opened it, and a form opened before a restart
    would go unanswered."""

    def __init__(self, game_id: int, round_no: int, locale: str, user_id: int) -> None:
        super().__init__(title=t("ui.grail_title", locale, round=round_no), custom_id=f"wh:grailmodal:{game_id}:{round_no}:{user_id}")
        self.add_item(discord.ui.TextInput(label=t("ui.grail_label", locale), custom_id="number", min_length=1, max_length=GRAIL_LENGTH, placeholder="1–100"))


async def open_grail_form(interaction: discord.Interaction, game_id: int, round_no: int) -> None:
    """The grail form, or at once the refusal its answer would get (the Day closed, the
    game paused or over, not a player of it) rather than after a number is typed."""
    await require_open_for(interaction.client.db, interaction.user.id, game_id, round_no, "day")  # type: ignore[attr-defined]
    form = GrailModal(game_id, round_no, locale_of(interaction), interaction.user.id)
    form.stop()  # not kept by discord.py: the answer comes to grail_form_submitted
    await interaction.response.send_modal(form)


async def grail_form_submitted(interaction: discord.Interaction) -> bool:
    """Take a submitted form (from any process, before or after a restart): the grail
    form is the bot's only one, and any other is refused (``payload.check_form``); False
    when ``interaction`` is not a form."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    try:
        form = payload.check_form(interaction, GRAIL_FORM, GRAIL_LENGTH)
    except payload.PayloadError as exc:
        await payload.refuse(interaction, exc)
        return True
    game_id, round_no = form.fields["game"], form.fields["round"]
    # The form's one text field (forms drawn by an older version gave it another id).
    text = form.texts[0].strip()

    async def run() -> None:
        edit = interaction.message is not None  # a form opened from the panel redraws it
        await first_response.begin(interaction, idempotent=True, update=edit)
        # isdecimal, not isdigit: "²" and "①" are digits int() cannot read. Full-width
        # digits from a Chinese keyboard are decimals and read fine; a sign is let
        # through so "-1" gets the range message, as /grail -1 does.
        if not text.lstrip("+-").isdecimal() or len(text) - len(text.lstrip("+-")) > 1:
            raise ReplyError("reply.error.not_a_number", text=text[:10])
        receipt = await submit.send(interaction.client, SendGrail(int(text)), interaction.user.id, game_id=game_id, round_no=round_no)  # type: ignore[arg-type]
        await show_panel(interaction, game_id, edit=edit, pv=receipt.view)

    await guarded(interaction, run)
    return True


def _select(custom_id: str, placeholder: str, options: list[discord.SelectOption], low: int = 1, high: int = 1) -> discord.ui.Select[Any]:
    return discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150], options=options or [discord.SelectOption(label="—", value="0")], min_values=low, max_values=max(low, min(high, len(options) or 1)))


class VoteSelect(_Item, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:vote:{G}:{R}"):
    value_type = payload.SEAT

    def __init__(self, game_id: int, round_no: int, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        discord.ui.DynamicItem.__init__(self, _select(f"wh:vote:{game_id}:{round_no}", t("ui.vote", locale), options or []))
        self.game_id, self.round_no = game_id, round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> VoteSelect:
        return cls(int(match["game"]), int(match["round"]), options=list(getattr(item, "options", [])))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        return (await submit.send(interaction.client, SendVote(self.used.values[0]), interaction.user.id, game_id=self.game_id, round_no=self.round_no)).view  # type: ignore[arg-type]


class AttackSelect(_Item, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:atk:{G}:{R}"):
    value_type = payload.SEAT

    def __init__(self, game_id: int, round_no: int, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        discord.ui.DynamicItem.__init__(self, _select(f"wh:atk:{game_id}:{round_no}", t("ui.attack", locale), options or []))
        self.game_id, self.round_no = game_id, round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> AttackSelect:
        return cls(int(match["game"]), int(match["round"]), options=list(getattr(item, "options", [])))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        return (await submit.send(interaction.client, AddAction("attack", (self.used.values[0],)), interaction.user.id, game_id=self.game_id, round_no=self.round_no)).view  # type: ignore[arg-type]


class SkillSelect(_Item, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:skill:{G}:{R}"):
    """Choose a skill: a toggle flips, a skill without targets is ordered at once, one
    with targets (or an amount) asks for them in a second, private message."""

    value_type = payload.SKILL

    @property
    def idempotent(self) -> bool:  # type: ignore[override]
        return not may_flip(self.used.values[0])  # a toggle flipped twice is not flipped

    def __init__(self, game_id: int, round_no: int, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        discord.ui.DynamicItem.__init__(self, _select(f"wh:skill:{game_id}:{round_no}", t("ui.skill", locale), options or []))
        self.game_id, self.round_no = game_id, round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> SkillSelect:
        return cls(int(match["game"]), int(match["round"]), options=list(getattr(item, "options", [])))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        bot: Any = interaction.client
        pv = await self.player_view(interaction)
        pv.require_open(self.round_no, "dusk")
        skill_id: str = self.used.values[0]
        if skill_id == "release":
            return (await submit.send(bot, AddAction("release"), interaction.user.id, game_id=pv.game.id, round_no=self.round_no)).view
        assert pv.sheet is not None
        spec = class_spec(pv.sheet["class_id"]).skill(skill_id)
        if spec is None:
            raise ReplyError("reply.error.skill_unknown", skill=skill_id)
        if spec.mode == "toggle":
            return (await submit.send(bot, ToggleSkill(skill_id), interaction.user.id, game_id=pv.game.id, round_no=self.round_no)).view
        if spec.targets[1] == 0 and spec.amount is None:
            return (await submit.send(bot, AddAction(skill_id), interaction.user.id, game_id=pv.game.id, round_no=self.round_no)).view
        await ask_targets(interaction, pv, skill_id, self.round_no)
        return pv  # nothing sent yet: the panel is redrawn as just read


async def ask_targets(interaction: discord.Interaction, pv: PlayerView, skill_id: str, round_no: int) -> None:
    locale = locale_of(interaction)
    assert pv.sheet is not None
    spec = class_spec(pv.sheet["class_id"]).skill(skill_id)
    assert spec is not None
    view = discord.ui.View(timeout=None)
    if spec.targets[1] > 0:
        options = _others(pv, include_self=spec.target_self)
        view.add_item(SkillTargetSelect(pv.game.id, round_no, skill_id, locale, options, spec.targets[0], spec.targets[1]))
    else:
        view.add_item(AmountSelect(pv.game.id, round_no, skill_id, "", locale, _amounts(spec.amount)))
    name = skill_label(pv.sheet["class_id"], spec, locale)
    # The question is a message of its own: the panel it came from is redrawn after it.
    await first_response.acknowledge(interaction, update=True)
    await first_response.reply(interaction, content=t("ui.choose_targets", locale, skill=name), view=view, ephemeral=True)


def _amounts(span: tuple[int, int] | None) -> list[discord.SelectOption]:
    lo, hi = span or (1, 1)
    return [discord.SelectOption(label=str(n), value=str(n)) for n in range(lo, min(hi, lo + 24) + 1)]


class SkillTargetSelect(Checked, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:skt:{G}:{R}:(?P<skill>[a-z_]+)"):
    value_type = payload.SEAT

    def __init__(self, game_id: int, round_no: int, skill: str, locale: str = "en-US", options: list[discord.SelectOption] | None = None, low: int = 1, high: int = 1) -> None:
        super().__init__(_select(f"wh:skt:{game_id}:{round_no}:{skill}", t("ui.targets", locale), options or [], low, high))
        self.game_id, self.round_no, self.skill = game_id, round_no, skill

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> SkillTargetSelect:
        low, high = getattr(item, "min_values", 1), getattr(item, "max_values", 1)
        return cls(int(match["game"]), int(match["round"]), match["skill"], options=list(getattr(item, "options", [])), low=low, high=high)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await first_response.begin(interaction, idempotent=True, update=True)
            bot: Any = interaction.client
            pv = await submit.view_of(bot, interaction.user.id, self.game_id)
            pv.require_open(self.round_no, "dusk")
            targets: list[int] = self.used.values
            assert pv.sheet is not None
            spec = class_spec(pv.sheet["class_id"]).skill(self.skill)
            if spec is not None and spec.amount is not None:
                view = discord.ui.View(timeout=None)
                locale = locale_of(interaction)
                view.add_item(AmountSelect(self.game_id, self.round_no, self.skill, "-".join(map(str, targets)), locale, _amounts(spec.amount)))
                await first_response.update(interaction, content=t("ui.choose_amount", locale), view=view)
                return
            receipt = await submit.send(bot, AddAction(self.skill, tuple(targets)), interaction.user.id, game_id=pv.game.id, round_no=self.round_no)
            await show_panel(interaction, self.game_id, edit=True, pv=receipt.view)

        await guarded(interaction, run)


class AmountSelect(_Item, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:amt:{G}:{R}:(?P<skill>[a-z_]+):(?P<targets>[0-9-]{{0,80}})"):
    value_type = payload.AMOUNT

    def __init__(self, game_id: int, round_no: int, skill: str, targets: str, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        discord.ui.DynamicItem.__init__(self, _select(f"wh:amt:{game_id}:{round_no}:{skill}:{targets}", t("ui.amount", locale), options or []))
        self.game_id, self.round_no, self.skill, self.targets = game_id, round_no, skill, targets

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> AmountSelect:
        return cls(int(match["game"]), int(match["round"]), match["skill"], match["targets"], options=list(getattr(item, "options", [])))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        targets: list[int] = self.used.fields["targets"]
        return (await submit.send(interaction.client, AddAction(self.skill, tuple(targets), self.used.values[0]), interaction.user.id, game_id=self.game_id, round_no=self.round_no)).view  # type: ignore[arg-type]


class IdentifySelect(Checked, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:idp:{G}:{R}"):
    """Choose whom to identify; the guess is asked next, in a private message."""

    value_type = payload.SEAT

    def __init__(self, game_id: int, round_no: int, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(_select(f"wh:idp:{game_id}:{round_no}", t("ui.identify", locale), options or []))
        self.game_id, self.round_no = game_id, round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> IdentifySelect:
        return cls(int(match["game"]), int(match["round"]), options=list(getattr(item, "options", [])))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await first_response.begin(interaction, idempotent=True)
            locale = locale_of(interaction)
            pv = await submit.view_of(interaction.client, interaction.user.id, self.game_id)  # type: ignore[arg-type]
            pv.require_open(self.round_no, "dusk")
            assert pv.sheet is not None
            seat: int = self.used.values[0]
            options = [discord.SelectOption(label=guess_label(w, v, locale)[:100], value=f"{w}:{v}") for w, v in guess_options(pv.sheet)][:25]
            view = discord.ui.View(timeout=None)
            view.add_item(GuessSelect(self.game_id, self.round_no, seat, locale, options))
            who = names_of(pv.game, locale).get(seat, "?")
            await first_response.reply(interaction, content=t("ui.choose_guess", locale, player=words.seat_name(seat, who)), view=view, ephemeral=True)

        await guarded(interaction, run)


class GuessSelect(_Item, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:idg:{G}:{R}:(?P<seat>{NUMBER})"):
    value_type = payload.GUESS

    def __init__(self, game_id: int, round_no: int, seat: int, locale: str = "en-US", options: list[discord.SelectOption] | None = None) -> None:
        discord.ui.DynamicItem.__init__(self, _select(f"wh:idg:{game_id}:{round_no}:{seat}", t("ui.guess", locale), options or []))
        self.game_id, self.round_no, self.seat = game_id, round_no, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> GuessSelect:
        return cls(int(match["game"]), int(match["round"]), int(match["seat"]), options=list(getattr(item, "options", [])))

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        what, value = self.used.values[0]
        return (await submit.send(interaction.client, AddGuess(self.seat, (what, value)), interaction.user.id, game_id=self.game_id, round_no=self.round_no, locale=locale_of(interaction))).view  # type: ignore[arg-type]


class ClearButton(_Item, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:clr:{G}:{R}:(?P<kind>orders|identify|pass)"):
    """What ``/orders clear`` does: withdraw the orders or the identifications, or say
    "nothing tonight" (empty orders, which count as sent)."""

    def __init__(self, game_id: int, round_no: int, kind: str, locale: str = "en-US") -> None:
        label = t(f"ui.clear_{kind}", locale)
        emoji = "💤" if kind == "pass" else "🧹"
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(label=label, emoji=emoji, style=discord.ButtonStyle.secondary, custom_id=f"wh:clr:{game_id}:{round_no}:{kind}"))
        self.game_id, self.round_no, self.kind = game_id, round_no, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ClearButton:
        return cls(int(match["game"]), int(match["round"]), match["kind"])

    async def act(self, interaction: discord.Interaction) -> PlayerView | None:
        if self.kind == "pass":
            return (await submit.send(interaction.client, SendSubmission(engine.Orders()), interaction.user.id, game_id=self.game_id, round_no=self.round_no)).view  # type: ignore[arg-type]
        await submit.withdraw(interaction.client, interaction.user.id, self.kind, game_id=self.game_id, round_no=self.round_no)  # type: ignore[arg-type]
        return None


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [
    OpenPanelButton, RefreshButton, GrailButton, VoteSelect, AttackSelect, SkillSelect,
    SkillTargetSelect, AmountSelect, IdentifySelect, GuessSelect, ClearButton,
]  # fmt: skip


def _phase_post_controls(m: PhaseStarted | SheetPost, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return phase_post_view(msg.game_id, loc) if msg.game_id else None


def _reminder_controls(m: Reminder, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    """A player's own reminder opens their panel; the channel's names the command."""
    return phase_post_view(msg.game_id, loc) if private(msg) and msg.game_id else None


def _prompt_controls(m: PhasePrompt, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return prompt_view(info, m.round, m.phase, m.seat, m.sheet, loc)


RENDERERS.add_controls(PhaseStarted, _phase_post_controls)
RENDERERS.add_controls(SheetPost, _phase_post_controls)
RENDERERS.add_controls(Reminder, _reminder_controls)
RENDERERS.add_controls(PhasePrompt, _prompt_controls)
