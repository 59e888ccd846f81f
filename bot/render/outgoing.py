"""Outbox messages → Discord messages. The service writes data (the dataclasses of
``bot.core.messages``: events, a sheet, a deadline); :func:`render_outgoing` decodes each
row and words it in the recipient's language with the renderer registered for its class
(``RENDERERS``), the buttons and menus it carries from the controls registered for it.
Public posts are built only from public events (the renderer refuses anything else),
private ones only from the recipient's own.

Here are the renderers of the core's own messages (a step's events, a phase opening, a
sheet, the seed, a reminder, a pause, a cancelled game...); a feature's messages are
rendered by its look (``bot/features/<name>/look*.py``: ``RENDERERS.add(cls, renderer)``),
and a feature's components add the controls a message carries
(``RENDERERS.add_controls(cls, controls)``: the order panel on a phase's post, the Replay
button on the last one), so that nothing here imports a feature's user interface. Every
look and components module is imported when the bot starts (``bot.discord.features``).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import discord

from bot.core.messages import (
    DeadlineExtended,
    GameCancelled,
    GamePaused,
    GameResumed,
    GameStarted,
    Message,
    PhaseStarted,
    Reminder,
    SeedRevealed,
    Sheet,
    StepEvents,
    UnknownMessageError,
    decode,
    encode,
)
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.features.lobby.start_time import NOT_FILLED
from bot.features.moderation.moderation import CHANNEL_GONE
from bot.features.practice.practice import STOPPED as PRACTICE_STOPPED
from bot.i18n import has_key, t
from bot.render import words
from bot.render.chart import scoreboard_png, survivor_bonus
from bot.render.fields import add_lines
from bot.render.posts import (
    PHASE_COLOUR,
    announcement_embed,
    deadline_text,
    phase_opened,
    private_embed,
    scoreboard_embed,
    wounded_lines,
)
from bot.render.replies import names_of, notice_embed
from bot.render.sheet import sheet_embed
from engine.scoring import SURVIVOR_POINTS

log = logging.getLogger("wolfhowl.discord.outbound")
NEUTRAL = 0x4B5563


@dataclass
class Rendered:
    """One message ready to send. Attachments are kept as bytes: a ``discord.File`` can
    be sent only once, and a delivery may be retried."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.attachments]

    def fingerprint(self) -> tuple[str, ...]:
        """What identifies this message among the bot's recent ones in a channel."""
        out = [self.content or ""]
        for e in self.embeds:
            out += [e.title or "", e.description or ""]
        return tuple(out)


M = TypeVar("M", bound=Message)
# A renderer: the message, its row (recipient, game), the game as it stands, the locale.
Renderer = Callable[[M, OutgoingMessage, GameInfo | None, str], Rendered]
# A message's controls, from the same: its buttons and menus (None: it carries none).
Controls = Callable[[M, OutgoingMessage, GameInfo | None, str], discord.ui.View | None]


class Renderers:
    """Each message class with its renderer and, when it carries any, its controls.
    ``add`` ties a class to a function of that class (mypy holds the two together);
    ``tests/service/test_messages.py`` holds that every kind of :mod:`bot.core.messages`
    has one."""

    def __init__(self) -> None:
        self._by_class: dict[type[Message], Renderer[Any]] = {}
        self._controls: dict[type[Message], Controls[Any]] = {}

    def add(self, cls: type[M], render: Renderer[M]) -> None:
        self._by_class[cls] = render

    def add_controls(self, cls: type[M], controls: Controls[M]) -> None:
        """The buttons and menus a message of ``cls`` carries (one feature's: a second
        is refused, the view they would share has one owner)."""
        if cls in self._controls and self._controls[cls] is not controls:
            raise ValueError(f"{cls.__name__} has its controls already")
        self._controls[cls] = controls

    def classes(self) -> set[type[Message]]:
        return set(self._by_class)

    def render(self, message: Message, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
        render: Renderer[Any] | None = self._by_class.get(type(message))
        if render is None:
            raise LookupError(f"no renderer for {type(message).__name__}: the features' looks are imported by bot.discord.features.discover()")
        rendered = render(message, msg, info, loc)
        controls: Controls[Any] | None = self._controls.get(type(message))
        view = controls(message, msg, info, loc) if controls is not None else None
        if view is not None:
            rendered.view = view
        return rendered


RENDERERS = Renderers()


def iso_ts(iso: str | None) -> int | None:
    """A stored ISO time as a Unix timestamp (for ``<t:…>``), None for none."""
    return int(datetime.fromisoformat(iso).timestamp()) if iso else None


def private(msg: OutgoingMessage) -> bool:
    """A message to one reader: a user's DM, or an AI seat's mail, which the AI reads as a
    person reads their DMs (never sent; worded the same when shown, as in a replay)."""
    return msg.recipient_kind in ("user", "seat")


def notice(key: str, params: dict[str, Any], loc: str) -> Rendered:
    """A plain notice worded by ``key`` from the message's fields (a deadline shown as a
    time, a phase by its name)."""
    if params.get("deadline"):
        params["deadline"] = deadline_text(iso_ts(params["deadline"]), loc)
    if isinstance(params.get("phase"), str):
        params["phase"] = f"phase.{params['phase']}"
    return Rendered(embeds=[notice_embed(t(key, loc, **params), NEUTRAL)])


def params_of(m: Message, msg: OutgoingMessage) -> dict[str, Any]:
    """A notice's wording parameters: the message's fields as stored, and its game."""
    return {"game_id": msg.game_id, **encode(m)}


def simple(key: str) -> Renderer[Message]:
    """The renderer of a plain notice worded by ``key``."""

    def render(m: Message, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
        return notice(key, params_of(m, msg), loc)

    return render


# The title of a channel post of events by the step that produced them (an advance is
# titled by the phase it closed: the grail at Day, the dawn at Dusk, the morning's
# announcement). Posts written before the outbox named the step are advances.
STEP_TITLES = {
    "remove": "reply.post.removed_title",
    "replace": "reply.post.replaced_title",
    "end": "reply.post.ended_title",
}


def _events(m: StepEvents, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    events = list(m.events)
    names = names_of(info, loc) if info else {}
    round_no, phase, step = m.round, m.phase, m.step or "advance"
    if private(msg):
        wounded = m.wounded if isinstance(m.wounded, dict) else None
        embed = private_embed(events, round_no, loc, names, phase if step == "advance" else "", final=m.final, wounded=wounded)
        return Rendered(embeds=[embed])
    out = Rendered()
    if step == "end":
        # Only the scoreboard follows: say first that a moderator ended it, and how it is scored.
        out.embeds.append(discord.Embed(title=t("reply.post.ended_title", loc), description=t("reply.post.ended_body", loc), colour=PHASE_COLOUR["over"]))
    dawn = phase == "dusk" and step == "advance"
    if dawn or any(e.kind != "GameEnded" for e in events):
        embed = announcement_embed(events, round_no, loc, names, dawn=dawn)
        if step in STEP_TITLES:
            embed.title = t(STEP_TITLES[step], loc, round=round_no)
        elif phase == "day":
            embed.title = t("reply.post.day_title", loc, round=round_no)
        out.embeds.append(embed)
    ended = next((e for e in events if e.kind == "GameEnded"), None)
    if ended is not None:
        out.embeds.append(scoreboard_embed(ended.data, loc, None, None))
        survivors = survivor_bonus(ended.data.get("roster") or [], SURVIVOR_POINTS)
        history, win_score = (m.history.score_history, m.history.win_score) if m.history else (None, None)
        chart = scoreboard_png(ended.data["scores"], ended.data["winners"], loc, history=history, win_score=win_score, survivors=survivors)
        out.attachments.append(("scoreboard.png", chart))
    return out


def _phase_started(m: PhaseStarted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = phase_opened(m.phase, m.round, iso_ts(m.deadline), loc)
    embed = discord.Embed(description=text, colour=PHASE_COLOUR.get(m.phase, NEUTRAL))
    return Rendered(embeds=[embed])


def _game_started(m: GameStarted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    roster = [f"{s['seat']}. {words.player_name(s['name'])}" for s in m.table]
    embed = discord.Embed(title=t("reply.post.started_title", loc), description=t("reply.post.started", loc, count=len(m.table)), colour=PHASE_COLOUR["day"])
    add_lines(embed, t("reply.post.table", loc), roster)
    embed.set_footer(text=t("post.seed_sha", loc, sha=m.seed_sha256)[:2048])
    return Rendered(embeds=[embed])


def _sheet(m: Sheet, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    content = t("reply.post.sheet_intro", loc, seat=m.sheet["seat"], game=msg.game_id)
    if m.tip:  # the holder's first game
        content += "\n" + t("prompt.tip_sheet", loc)
    return Rendered(content=content, embeds=[sheet_embed(m.sheet, loc)])


def _seed(m: SeedRevealed, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = t("post.seed", loc, seed=m.seed, sha=m.seed_sha256)
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["over"])])


REMINDERS = {"day": "reminder_day", "dusk": "reminder_dusk", "morning": "reminder_morning"}


def miss_run_note(in_row: int, left: int | None, action: str, locale: str) -> str | None:
    """What a private reminder adds for a player on a run of misses (None: nothing)."""
    if not in_row:
        return None
    run = t("absence.reminder_run", locale, count=in_row)
    if left is None:
        return run
    # ``left`` counts this phase: 1 means missing it too is enough.
    action = action or "notify"
    follows = t(f"absence.now_{action}", locale) if left <= 0 else t(f"absence.next_{action}", locale, count=left)
    return words.sentences((run, follows), locale)


def _reminder(m: Reminder, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    phase = f"phase.{m.phase}"
    deadline = f"<t:{iso_ts(m.deadline)}:R>" if m.deadline else t("post.no_deadline", loc)
    colour = PHASE_COLOUR.get(m.phase, NEUTRAL)
    if private(msg):
        # Each phase's reminder names what is missing and the command that sends it. At
        # Dusk what is missing is the orders; a wounded player cannot give any and is
        # told how to say they are done. A wounded player is told in every phase what
        # still counts and the odds of the coming roll (older reminders said only "wounded").
        dusk_wounded = bool(m.wounded) and m.phase == "dusk"
        key = "reminder_wounded" if dusk_wounded else REMINDERS.get(m.phase, "reminder_private")
        text = t(f"reply.post.{key}", loc, phase=phase, round=m.round, deadline=deadline)
        if isinstance(m.wounded, dict):
            text = "\n".join([text, *wounded_lines(m.wounded, loc, passing=False)])
        # A run of misses: what one more brings.
        run = miss_run_note(m.run.in_row, m.run.left, m.run.action, loc) if m.run else None
        if run:
            text = f"{text}\n{run}"
        return Rendered(embeds=[notice_embed(text, colour)])
    command = t(f"reply.post.reminder_command_{m.phase}", loc) if m.phase in REMINDERS else f"`/{t('cmd.name.orders', loc)}`"
    count = m.missing if m.missing is not None else 0
    text = t("reply.post.reminder_public", loc, phase=phase, round=m.round, deadline=deadline, count=count, command=command)
    return Rendered(embeds=[notice_embed(text, colour)])


def _cancelled(m: GameCancelled, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """In the channel: a moderator cancelled it. By DM: its channel is gone (with the seed,
    which could not be posted)."""
    if m.reason == NOT_FILLED:
        return Rendered(embeds=[notice_embed(_not_filled(m, loc), PHASE_COLOUR["over"])])
    if m.reason == PRACTICE_STOPPED:
        return Rendered(embeds=[notice_embed(t("practice.stopped_post", loc, game=msg.game_id or 0), PHASE_COLOUR["over"])])
    if m.reason != CHANNEL_GONE:
        return notice("reply.post.cancelled", params_of(m, msg), loc)
    text = t("reply.post.cancelled_channel_gone", loc, game=m.game if m.game is not None else msg.game_id)
    if m.seed:
        text += "\n" + t("post.seed", loc, seed=m.seed, sha=m.seed_sha256 or "")
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["over"])])


def _not_filled(m: GameCancelled, loc: str) -> str:
    """A lobby cancelled at its start time, short of players; those who wanted to play
    are pointed to the standby list's command (where the bot has one)."""
    text = t("lobby_start.cancelled", loc, count=m.count if m.count is not None else 0, min=m.min if m.min is not None else 6)
    if has_key("cmd.name.standby"):
        command = "/" + " ".join(t(f"cmd.name.{x}", loc) for x in ("game", "standby"))
        text += " " + t("lobby_start.standby", loc, command=command)
    return text


RENDERERS.add(StepEvents, _events)
RENDERERS.add(PhaseStarted, _phase_started)
RENDERERS.add(GameStarted, _game_started)
RENDERERS.add(Sheet, _sheet)
RENDERERS.add(SeedRevealed, _seed)
RENDERERS.add(Reminder, _reminder)
RENDERERS.add(GamePaused, simple("post.paused"))
RENDERERS.add(GameResumed, simple("post.resumed"))
RENDERERS.add(DeadlineExtended, simple("post.extended"))
RENDERERS.add(GameCancelled, _cancelled)


def render_outgoing(msg: OutgoingMessage, info: GameInfo | None = None, *, locale: str | None = None) -> Rendered:
    """The message for ``msg`` in ``locale`` (default: the one the service chose), of the
    game ``info`` (default: the one the dispatcher read with it). A row of a kind this
    release does not know (written by a newer one) is shown as such."""
    loc = locale or msg.locale
    info = info if info is not None else msg.game
    try:
        message = msg.message if msg.message is not None else decode(msg.payload)
    except UnknownMessageError:
        kind = str(msg.payload.get("type", ""))
        log.warning("no renderer for outbox payload type %r (%s)", kind, msg.key)
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind=kind), NEUTRAL)])
    return RENDERERS.render(message, msg, info, loc)
