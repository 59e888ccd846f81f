"""Outbox payloads → Discord messages. The service writes data (events, a sheet, a
deadline); this module words it in the recipient's language with the renderers of
``bot.render``. Public posts are built only from public events (the renderer refuses
anything else), private ones only from the recipient's own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.discord.replies import lobby_embed, names_of, notice_embed
from bot.i18n import has_key, t, terms
from bot.render import absence as absence_text
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
from bot.render.recap import fit_one, recap_embeds
from bot.render.sheet import sheet_embed
from bot.service.moderation import CHANNEL_GONE
from bot.service.outbox import OutgoingMessage
from bot.service.recap import RecapEntry
from bot.service.start_time import NOT_FILLED
from bot.service.types import GameInfo
from engine.events import Event
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
        import io

        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.attachments]

    def fingerprint(self) -> tuple[str, ...]:
        """What identifies this message among the bot's recent ones in a channel."""
        out = [self.content or ""]
        for e in self.embeds:
            out += [e.title or "", e.description or ""]
        return tuple(out)


def _ts(iso: str | None) -> int | None:
    return int(datetime.fromisoformat(iso).timestamp()) if iso else None


def _panel_view(game_id: int, locale: str) -> discord.ui.View:
    from bot.discord.views.panel import OpenPanelButton
    from bot.discord.views.table import TableButton

    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanelButton(game_id, locale))
    view.add_item(TableButton(game_id, locale))
    return view


# The title of a channel post of events by the step that produced them (an advance is
# titled by the phase it closed: the grail at Day, the dawn at Dusk, the morning's
# announcement). Posts written before the outbox named the step are advances.
STEP_TITLES = {
    "remove": "reply.post.removed_title",
    "replace": "reply.post.replaced_title",
    "end": "reply.post.ended_title",
}


def _events(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    events = [Event.from_dict(e) for e in p.get("events", [])]
    names = names_of(info, loc) if info else {}
    round_no = int(p.get("round", 0))
    phase = str(p.get("phase", ""))
    step = str(p.get("step") or "advance")
    if msg.recipient_kind == "user":
        wounded = p.get("wounded") if isinstance(p.get("wounded"), dict) else None
        embed = private_embed(events, round_no, loc, names, phase if step == "advance" else "", final=bool(p.get("final")), wounded=wounded)
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
        chart = scoreboard_png(ended.data["scores"], ended.data["winners"], loc, history=p.get("score_history"), win_score=p.get("win_score"), survivors=survivors)
        out.attachments.append(("scoreboard.png", chart))
        if msg.game_id:
            from bot.discord.views.replay import replay_view

            out.view = replay_view(msg.game_id, loc)
    return out


ENDING_TITLES = {"win": "ending.title_win", "shared": "ending.title_shared", "loss": "ending.title_loss"}
ENDING_COLOUR = {"win": PHASE_COLOUR["over"], "shared": PHASE_COLOUR["over"], "loss": NEUTRAL}


def _ending(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A player's own ending: won or lost and why, the scores, their points, their rating's
    move, and the Replay button."""
    from bot.discord.views.replay import replay_view

    result = str(p.get("result", "loss"))
    faction = terms.faction(str(p.get("faction")), loc)
    winners = [terms.faction(w, loc) for w in p.get("winners", [])]
    why = "ending.why_single" if len(winners) == 1 else "ending.why_shared"
    reason = t(f"end_reason.{p.get('reason') or 'stopped'}", loc)
    lines = [t(why, loc, winners=words.listing(winners, loc), round=p.get("round", 0), reason=reason)]
    fate = t("ending.fate_alive" if p.get("alive") else "ending.fate_departed", loc)
    lines.append(t("ending.you", loc, faction=faction, class_name=terms.class_name(str(p.get("class_id")), loc), seat=p.get("seat"), fate=fate))
    scores = sorted(dict(p.get("scores") or {}).items(), key=lambda kv: -kv[1])
    shown = [f"{terms.faction(f, loc)} **{v}**" if f == p.get("faction") else f"{terms.faction(f, loc)} {v}" for f, v in scores]
    lines.append(t("ending.scores", loc, scores=" · ".join(shown)))
    points = dict(p.get("points") or {})
    parts = [t(f"ending.points_{k}", loc, points=points[k]) for k in ("allocation", "steal", "kill", "survivors") if points.get(k)]
    if parts:
        lines.append(t("ending.points", loc, faction=faction, total=points.get("total", 0), parts=words.listing(parts, loc)))
    else:
        lines.append(t("ending.points_none", loc, faction=faction))
    if points.get("teamkills"):
        lines.append(t("ending.teamkills", loc, count=points["teamkills"]))
    rating = p.get("rating")
    if isinstance(rating, dict):
        after = float(rating["after"])
        if rating.get("before") is None:
            lines.append(t("ending.rating_first", loc, after=_signed(after, plus="")))
        else:
            before = float(rating["before"])
            lines.append(t("ending.rating", loc, before=_signed(before, plus=""), after=_signed(after, plus=""), delta=_signed(after - before)))
    lines.append(t("ending.replay", loc))
    title = t(ENDING_TITLES.get(result, "ending.title_loss"), loc, game=msg.game_id or p.get("game_id", 0))
    embed = discord.Embed(title=title, description="\n".join(lines)[:4096], colour=ENDING_COLOUR.get(result, NEUTRAL))
    return Rendered(embeds=[embed], view=replay_view(msg.game_id, loc) if msg.game_id else None)


def _signed(x: float, plus: str = "+") -> str:
    """A rating to one decimal, with a true minus sign (and ``plus`` before the others)."""
    return f"{plus if x >= 0 else '−'}{abs(x):.1f}"


def _phase_started(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    phase = str(p.get("phase"))
    text = phase_opened(phase, int(p.get("round", 0)), _ts(p.get("deadline")), loc)
    embed = discord.Embed(description=text, colour=PHASE_COLOUR.get(phase, NEUTRAL))
    return Rendered(embeds=[embed], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)


def _game_started(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    roster = [f"{s['seat']}. {words.player_name(s['name'])}" for s in p.get("table", [])]
    embed = discord.Embed(title=t("reply.post.started_title", loc), description=t("reply.post.started", loc, count=len(p.get("table", []))), colour=PHASE_COLOUR["day"])
    add_lines(embed, t("reply.post.table", loc), roster)
    embed.set_footer(text=t("post.seed_sha", loc, sha=p.get("seed_sha256", ""))[:2048])
    return Rendered(embeds=[embed])


def _lobby(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The lobby post as the game stands when it is sent (whoever has joined meanwhile;
    closed if the game has started)."""
    from bot.discord.views.lobby import lobby_view

    if info is None:
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind="lobby"), NEUTRAL)])
    return Rendered(embeds=[lobby_embed(info, loc)], view=lobby_view(info))


def _sheet(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    sheet = p["sheet"]
    content = t("reply.post.sheet_intro", loc, seat=sheet["seat"], game=msg.game_id)
    return Rendered(content=content, embeds=[sheet_embed(sheet, loc)], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)


def _seed(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = t("post.seed", loc, seed=p.get("seed", ""), sha=p.get("seed_sha256", ""))
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["over"])])


REMINDERS = {"day": "reminder_day", "dusk": "reminder_dusk", "morning": "reminder_morning"}


def _reminder(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    phase = f"phase.{p.get('phase')}"
    deadline = f"<t:{_ts(p.get('deadline'))}:R>" if p.get("deadline") else t("post.no_deadline", loc)
    if msg.recipient_kind == "user":
        # Each phase's reminder names what is missing and the command that sends it. At
        # Dusk what is missing is the orders; a wounded player cannot give any and is
        # told how to say they are done. A wounded player is told in every phase what
        # still counts and the odds of the coming roll (older reminders said only "wounded").
        wounded = p.get("wounded")
        dusk_wounded = bool(wounded) and p.get("phase") == "dusk"
        key = "reminder_wounded" if dusk_wounded else REMINDERS.get(str(p.get("phase")), "reminder_private")
        text = t(f"reply.post.{key}", loc, phase=phase, round=p.get("round"), deadline=deadline)
        if isinstance(wounded, dict):
            text = "\n".join([text, *wounded_lines(wounded, loc, passing=False)])
        run = absence_text.reminder_note(p, loc)  # a run of misses: what one more brings
        if run:
            text = f"{text}\n{run}"
        return Rendered(embeds=[notice_embed(text, PHASE_COLOUR.get(str(p.get("phase")), NEUTRAL))], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)
    command = t(f"reply.post.reminder_command_{p.get('phase')}", loc) if p.get("phase") in REMINDERS else f"`/{t('cmd.name.orders', loc)}`"
    text = t("reply.post.reminder_public", loc, phase=phase, round=p.get("round"), deadline=deadline, count=p.get("missing", 0), command=command)
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR.get(str(p.get("phase")), NEUTRAL))])


def _simple(key: str) -> Callable[[dict[str, Any], OutgoingMessage, GameInfo | None, str], Rendered]:
    def render(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
        params = dict(p)
        if p.get("deadline"):
            params["deadline"] = deadline_text(_ts(p["deadline"]), loc)
        if isinstance(p.get("phase"), str):
            params["phase"] = f"phase.{p['phase']}"
        return Rendered(embeds=[notice_embed(t(key, loc, **params), NEUTRAL)])

    return render


def _cancelled(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """In the channel: a moderator cancelled it. By DM: its channel is gone (with the seed,
    which could not be posted)."""
    if p.get("reason") == NOT_FILLED:
        return Rendered(embeds=[notice_embed(_not_filled(p, loc), PHASE_COLOUR["over"])])
    if p.get("reason") != CHANNEL_GONE:
        return _simple("reply.post.cancelled")(p, msg, info, loc)
    text = t("reply.post.cancelled_channel_gone", loc, game=p.get("game", msg.game_id))
    if p.get("seed"):
        text += "\n" + t("post.seed", loc, seed=p["seed"], sha=p.get("seed_sha256", ""))
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["over"])])


def _not_filled(p: dict[str, Any], loc: str) -> str:
    """A lobby cancelled at its start time, short of players; those who wanted to play
    are pointed to the standby list's command (where the bot has one)."""
    text = t("lobby_start.cancelled", loc, count=p.get("count", 0), min=p.get("min", 6))
    if has_key("cmd.name.standby"):
        command = "/" + " ".join(t(f"cmd.name.{x}", loc) for x in ("game", "standby"))
        text += " " + t("lobby_start.standby", loc, command=command)
    return text


def _lobby_kicked(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return _simple("reply.post.lobby_kicked")({**p, "game": msg.game_id}, msg, info, loc)


def _replaced(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    names: dict[str, str] = {k: words.shown_name(str(p.get(k, "")), loc) for k in ("old_name", "new_name") if k in p}
    key = "reply.post.seat_handed_over" if p.get("type") == "seat_handed_over" else "reply.post.replaced"
    return _simple(key)({**p, **names}, msg, info, loc)


def _target_removed(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """Your vote, orders or guess named a player a moderator has removed."""
    what = {"vote": "vote", "orders": "orders"}.get(str(p.get("what")), "identify")
    return _simple(f"reply.post.target_removed_{what}")({**p, "name": words.player_name(str(p.get("name", "")))}, msg, info, loc)


def _lobby_reminder(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """To a lobby member: the game they joined starts soon (if enough have joined)."""
    key = "lobby_start.reminder" if int(p.get("count", 0)) >= int(p.get("min", 6)) else "lobby_start.reminder_short"
    text = t(key, loc, game=msg.game_id, channel=p.get("channel_id"), ts=_ts(p.get("start_at")), count=p.get("count", 0), min=p.get("min", 6))
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["day"])])


def _recap(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """One part of a newcomer's catch-up: the seat's history, a few steps per message."""
    entries = [RecapEntry.from_dict(e) for e in p.get("entries", [])]
    embeds = [e for _, e in recap_embeds(entries, loc, names_of(info, loc) if info else {})]
    content = t("recap.catch_up", loc, seat=p.get("seat"), game=msg.game_id, part=p.get("part", 1), parts=p.get("parts", 1))
    if p.get("part", 1) == 1:
        content += "\n" + t("recap.legend", loc)
    kept, left = fit_one(embeds, len(content) + 200)
    if left:  # never expected (the service keeps parts small); said rather than refused
        content += "\n" + t("recap.cut", loc, count=left)
    return Rendered(content=content[:2000], embeds=kept)


def _absence_warning(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = absence_text.warning_text(p, msg.game_id, loc)
    return Rendered(embeds=[notice_embed(text, 0xB45309)])


def _absence_moderator(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return Rendered(embeds=[notice_embed(absence_text.moderator_text(p, loc), 0xB45309)])


def _seat_offer(p: dict[str, Any], msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    from bot.discord.views.standby import offer_view

    return Rendered(embeds=[notice_embed(absence_text.offer_text(p, loc), NEUTRAL)], view=offer_view(int(p["offer"]), loc))


RENDERERS: dict[str, Callable[[dict[str, Any], OutgoingMessage, GameInfo | None, str], Rendered]] = {
    "events": _events,
    "ending": _ending,
    "phase_started": _phase_started,
    "lobby": _lobby,
    "game_started": _game_started,
    "sheet": _sheet,
    "seed_revealed": _seed,
    "reminder": _reminder,
    "game_paused": _simple("post.paused"),
    "game_resumed": _simple("post.resumed"),
    "deadline_extended": _simple("post.extended"),
    "player_replaced": _replaced,
    "seat_handed_over": _replaced,
    "lobby_kicked": _lobby_kicked,
    "target_removed": _target_removed,
    "game_cancelled": _cancelled,
    "recap": _recap,
    "lobby_reminder": _lobby_reminder,
    "absence_warning": _absence_warning,
    "absence_moderator": _absence_moderator,
    "offers_exhausted": _absence_moderator,
    "seat_offer": _seat_offer,
}


def render_outgoing(msg: OutgoingMessage, info: GameInfo | None, *, locale: str | None = None) -> Rendered:
    """The message for ``msg`` in ``locale`` (default: the one the service chose)."""
    loc = locale or msg.locale
    kind = str(msg.payload.get("type", ""))
    renderer = RENDERERS.get(kind)
    if renderer is None:
        log.warning("no renderer for outbox payload type %r (%s)", kind, msg.key)
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind=kind), NEUTRAL)])
    return renderer(msg.payload, msg, info, loc)
