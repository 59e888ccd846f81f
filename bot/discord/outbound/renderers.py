"""Outbox messages → Discord messages. The service writes data (the dataclasses of
``bot.core.messages``: events, a sheet, a deadline); this module decodes each row and
words it in the recipient's language with the renderer registered for its class and the
renderers of ``bot.render``. Public posts are built only from public events (the renderer refuses
anything else), private ones only from the recipient's own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import discord

from bot.core.messages import (
    AbsenceModerator,
    AbsenceWarning,
    DeadlineExtended,
    Ending,
    GalleryTruth,
    GameCancelled,
    GamePaused,
    GameResumed,
    GameStarted,
    LobbyKicked,
    LobbyPost,
    LobbyReminder,
    Message,
    OffersExhausted,
    PhaseExplained,
    PhasePrompt,
    PhaseStarted,
    PlayerReplaced,
    PredictionScores,
    PredictionsOpened,
    RecapPart,
    Reminder,
    SeasonEnded,
    SeatHandedOver,
    SeatOffered,
    SeedRevealed,
    Sheet,
    StepEvents,
    TargetRemoved,
    UnknownMessageError,
    decode,
    encode,
)
from bot.core.outbox import OutgoingMessage
from bot.core.time_zones import local
from bot.core.types import GameInfo
from bot.discord.embeds.replies import lobby_embed, names_of, notice_embed
from bot.features.absence import look as absence_text
from bot.features.gallery import look as gallery_text
from bot.features.gallery.components import predict_view
from bot.features.lobby.components import lobby_view
from bot.features.lobby.start_time import NOT_FILLED
from bot.features.moderation.moderation import CHANNEL_GONE
from bot.features.play.components import OpenPanelButton, prompt_view
from bot.features.practice.practice import STOPPED as PRACTICE_STOPPED
from bot.features.recap.look import fit_one, recap_embeds
from bot.features.recap.recap import RecapEntry
from bot.features.replay.components import replay_view
from bot.features.seasons.look import summary_embed
from bot.features.standbys.components import offer_view
from bot.features.table_view.components import TableButton
from bot.i18n import has_key, t, terms
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
from bot.render.sheet import sheet_embed
from engine.scoring import SURVIVOR_POINTS
from engine.values import FACTIONS

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


M = TypeVar("M", bound=Message)
# A renderer: the message, its row (recipient, game), the game as it stands, the locale.
Renderer = Callable[[M, OutgoingMessage, GameInfo | None, str], Rendered]


def _ts(iso: str | None) -> int | None:
    return int(datetime.fromisoformat(iso).timestamp()) if iso else None


def _panel_view(game_id: int, locale: str) -> discord.ui.View:
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


def _private(msg: OutgoingMessage) -> bool:
    """A message to one reader: a user's DM, or an AI seat's mail, which the AI reads as a
    person reads their DMs (never sent; worded the same when shown, as in a replay)."""
    return msg.recipient_kind in ("user", "seat")


def _events(m: StepEvents, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    events = list(m.events)
    names = names_of(info, loc) if info else {}
    round_no, phase, step = m.round, m.phase, m.step or "advance"
    if _private(msg):
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
        if msg.game_id:
            out.view = replay_view(msg.game_id, loc)
    return out


ENDING_TITLES = {"win": "ending.title_win", "shared": "ending.title_shared", "loss": "ending.title_loss"}
ENDING_COLOUR = {"win": PHASE_COLOUR["over"], "shared": PHASE_COLOUR["over"], "loss": NEUTRAL}


def _ending(m: Ending, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A player's own ending: won or lost and why, the scores, their points, their rating's
    move, and the Replay button."""

    faction = terms.faction(m.faction, loc)
    winners = [terms.faction(w, loc) for w in m.winners]
    why = "ending.why_single" if len(winners) == 1 else "ending.why_shared"
    reason = t(f"end_reason.{m.reason or 'stopped'}", loc)
    lines = [t(why, loc, winners=words.listing(winners, loc), round=m.round, reason=reason)]
    fate = t("ending.fate_alive" if m.alive else "ending.fate_departed", loc)
    player = words.seat_label(m.seat, names_of(info, loc) if info else {})
    lines.append(t("ending.you", loc, player=player, faction=faction, class_name=terms.class_name(m.class_id, loc), fate=fate))
    scores = sorted(dict(m.scores or {}).items(), key=lambda kv: -kv[1])
    shown = [f"{terms.faction(f, loc)} **{v}**" if f == m.faction else f"{terms.faction(f, loc)} {v}" for f, v in scores]
    lines.append(t("ending.scores", loc, scores=" · ".join(shown)))
    if m.head_starts:
        given = [f"{terms.faction(f.value, loc)} +{m.head_starts[f.value]}" for f in FACTIONS if f.value in m.head_starts]
        lines.append(t("ending.head_starts", loc, starts=words.listing(given, loc)))
    points = dict(m.points or {})
    parts = [t(f"ending.points_{k}", loc, points=points[k]) for k in ("allocation", "steal", "kill", "survivors") if points.get(k)]
    if parts:
        lines.append(t("ending.points", loc, faction=faction, total=points.get("total", 0), parts=words.listing(parts, loc)))
    else:
        lines.append(t("ending.points_none", loc, faction=faction))
    if points.get("teamkills"):
        lines.append(t("ending.teamkills", loc, count=points["teamkills"]))
    rating = m.rating
    if isinstance(rating, dict):
        after = float(rating["after"] or 0)
        if rating.get("before") is None:
            lines.append(t("ending.rating_first", loc, after=_signed(after, plus="")))
        else:
            before = float(rating["before"] or 0)
            lines.append(t("ending.rating", loc, before=_signed(before, plus=""), after=_signed(after, plus=""), delta=_signed(after - before)))
    lines.append(t("ending.replay", loc))
    title = t(ENDING_TITLES.get(m.result, "ending.title_loss"), loc, game=msg.game_id or 0)
    embed = discord.Embed(title=title, description="\n".join(lines)[:4096], colour=ENDING_COLOUR.get(m.result, NEUTRAL))
    return Rendered(embeds=[embed], view=replay_view(msg.game_id, loc) if msg.game_id else None)


def _signed(x: float, plus: str = "+") -> str:
    """A rating to one decimal, with a true minus sign (and ``plus`` before the others)."""
    return f"{plus if x >= 0 else '−'}{abs(x):.1f}"


def _phase_started(m: PhaseStarted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = phase_opened(m.phase, m.round, _ts(m.deadline), loc)
    embed = discord.Embed(description=text, colour=PHASE_COLOUR.get(m.phase, NEUTRAL))
    return Rendered(embeds=[embed], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)


def _prompt(m: PhasePrompt, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A phase's prompt: what to send, by when, with the controls for it (the order
    panel of the phase, drawn from the seat's sheet). A wounded player is told what still
    counts and the odds of the coming roll; at Dusk they get no night orders to give."""
    deadline = f"<t:{_ts(m.deadline)}:R>" if m.deadline else t("post.no_deadline", loc)
    if m.deadline and m.zone:  # the hour on the reader's own clock, in words
        deadline = t("tz.deadline", loc, deadline=deadline, time=f"{local(datetime.fromisoformat(m.deadline), m.zone):%H:%M}", zone=m.zone)
    key = "prompt.dusk_wounded" if m.phase == "dusk" and m.wounded else f"prompt.{m.phase}"
    lines = [t(key, loc, round=m.round, deadline=deadline)]
    if isinstance(m.wounded, dict):
        lines += wounded_lines(m.wounded, loc, passing=False)
    if m.tip:
        lines.append(t(f"prompt.tip_{m.phase}", loc))
    view = prompt_view(info, m.round, m.phase, m.seat, m.sheet, loc)
    if view is None:
        lines.append(t("prompt.closed", loc))
    embed = notice_embed("\n".join(lines), PHASE_COLOUR.get(m.phase, NEUTRAL))
    if info is None or info.guild_id is not None:  # (a practice game prompts its person always)
        embed.set_footer(text=t("prompt.turn_off", loc))
    return Rendered(embeds=[embed], view=view)


def _phase_explained(m: PhaseExplained, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A practice game's first Day, Dusk or Morning: what it is for, the rule that matters."""
    title = t("practice.explain_title", loc, phase=t(f"phase.{m.phase}", loc))
    embed = discord.Embed(title=title, description=t(f"practice.explain_{m.phase}", loc), colour=PHASE_COLOUR.get(m.phase, NEUTRAL))
    return Rendered(embeds=[embed])


def _game_started(m: GameStarted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    roster = [f"{s['seat']}. {words.player_name(s['name'])}" for s in m.table]
    embed = discord.Embed(title=t("reply.post.started_title", loc), description=t("reply.post.started", loc, count=len(m.table)), colour=PHASE_COLOUR["day"])
    add_lines(embed, t("reply.post.table", loc), roster)
    embed.set_footer(text=t("post.seed_sha", loc, sha=m.seed_sha256)[:2048])
    return Rendered(embeds=[embed])


def _lobby(m: LobbyPost, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The lobby post as the game stands when it is sent (whoever has joined meanwhile;
    closed if the game has started)."""

    if info is None:
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind="lobby"), NEUTRAL)])
    return Rendered(embeds=[lobby_embed(info, loc)], view=lobby_view(info))


def _sheet(m: Sheet, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    content = t("reply.post.sheet_intro", loc, seat=m.sheet["seat"], game=msg.game_id)
    if m.tip:  # the holder's first game
        content += "\n" + t("prompt.tip_sheet", loc)
    return Rendered(content=content, embeds=[sheet_embed(m.sheet, loc)], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)


def _seed(m: SeedRevealed, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = t("post.seed", loc, seed=m.seed, sha=m.seed_sha256)
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["over"])])


REMINDERS = {"day": "reminder_day", "dusk": "reminder_dusk", "morning": "reminder_morning"}


def _reminder(m: Reminder, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    phase = f"phase.{m.phase}"
    deadline = f"<t:{_ts(m.deadline)}:R>" if m.deadline else t("post.no_deadline", loc)
    colour = PHASE_COLOUR.get(m.phase, NEUTRAL)
    if _private(msg):
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
        run = absence_text.reminder_note(m.run.in_row, m.run.left, m.run.action, loc) if m.run else None
        if run:
            text = f"{text}\n{run}"
        return Rendered(embeds=[notice_embed(text, colour)], view=_panel_view(msg.game_id or 0, loc) if msg.game_id else None)
    command = t(f"reply.post.reminder_command_{m.phase}", loc) if m.phase in REMINDERS else f"`/{t('cmd.name.orders', loc)}`"
    count = m.missing if m.missing is not None else 0
    text = t("reply.post.reminder_public", loc, phase=phase, round=m.round, deadline=deadline, count=count, command=command)
    return Rendered(embeds=[notice_embed(text, colour)])


def _notice(key: str, params: dict[str, Any], loc: str) -> Rendered:
    """A plain notice worded by ``key`` from the message's fields (a deadline shown as a
    time, a phase by its name)."""
    if params.get("deadline"):
        params["deadline"] = deadline_text(_ts(params["deadline"]), loc)
    if isinstance(params.get("phase"), str):
        params["phase"] = f"phase.{params['phase']}"
    return Rendered(embeds=[notice_embed(t(key, loc, **params), NEUTRAL)])


def _params(m: Message, msg: OutgoingMessage) -> dict[str, Any]:
    """A notice's wording parameters: the message's fields as stored, and its game."""
    return {"game_id": msg.game_id, **encode(m)}


def _simple(key: str) -> Renderer[Message]:
    def render(m: Message, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
        return _notice(key, _params(m, msg), loc)

    return render


def _cancelled(m: GameCancelled, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """In the channel: a moderator cancelled it. By DM: its channel is gone (with the seed,
    which could not be posted)."""
    if m.reason == NOT_FILLED:
        return Rendered(embeds=[notice_embed(_not_filled(m, loc), PHASE_COLOUR["over"])])
    if m.reason == PRACTICE_STOPPED:
        return Rendered(embeds=[notice_embed(t("practice.stopped_post", loc, game=msg.game_id or 0), PHASE_COLOUR["over"])])
    if m.reason != CHANNEL_GONE:
        return _notice("reply.post.cancelled", _params(m, msg), loc)
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


def _lobby_kicked(m: LobbyKicked, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return _notice("reply.post.lobby_kicked", {**_params(m, msg), "game": msg.game_id}, loc)


def _replaced(m: PlayerReplaced | SeatHandedOver, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    params = _params(m, msg)
    names: dict[str, str] = {k: words.shown_name(str(params[k]), loc) for k in ("old_name", "new_name") if k in params}
    key = "reply.post.seat_handed_over" if isinstance(m, SeatHandedOver) else "reply.post.replaced"
    return _notice(key, {**params, **names}, loc)


def _target_removed(m: TargetRemoved, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """Your vote, orders or guess named a player a moderator has removed."""
    what = {"vote": "vote", "orders": "orders"}.get(m.what, "identify")
    return _notice(f"reply.post.target_removed_{what}", {**_params(m, msg), "name": words.seat_name(m.seat, words.player_name(m.name))}, loc)


def _lobby_reminder(m: LobbyReminder, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """To a lobby member: the game they joined starts soon (if enough have joined)."""
    key = "lobby_start.reminder" if m.count >= m.min else "lobby_start.reminder_short"
    text = t(key, loc, game=msg.game_id, channel=m.channel_id, ts=_ts(m.start_at), count=m.count, min=m.min)
    return Rendered(embeds=[notice_embed(text, PHASE_COLOUR["day"])])


def _recap(m: RecapPart, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """One part of a newcomer's catch-up: the seat's history, a few steps per message."""
    entries = [RecapEntry.from_dict(e) for e in m.entries]
    embeds = [e for _, e in recap_embeds(entries, loc, names_of(info, loc) if info else {})]
    content = t("recap.catch_up", loc, seat=m.seat, game=msg.game_id, part=m.part, parts=m.parts)
    if m.part == 1:
        content += "\n" + t("recap.legend", loc)
    kept, left = fit_one(embeds, len(content) + 200)
    if left:  # never expected (the service keeps parts small); said rather than refused
        content += "\n" + t("recap.cut", loc, count=left)
    return Rendered(content=content[:2000], embeds=kept)


ABSENCE_COLOUR = 0xB45309


def _absence_warning(m: AbsenceWarning, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = absence_text.warning_text(m.phase, m.round, m.in_row, m.total, m.left, m.action, msg.game_id, loc)
    return Rendered(embeds=[notice_embed(text, ABSENCE_COLOUR)])


def _absence_moderator(m: AbsenceModerator, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = absence_text.moderator_text(m.game, m.seat, m.name, m.in_row, m.total, m.action, loc)
    return Rendered(embeds=[notice_embed(text, ABSENCE_COLOUR)])


def _offers_exhausted(m: OffersExhausted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return Rendered(embeds=[notice_embed(absence_text.exhausted_text(m.game, m.seat, m.name, m.removed, loc), ABSENCE_COLOUR)])


def _seat_offer(m: SeatOffered, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = absence_text.offer_text(m.game, m.channel, m.seat, m.expires, loc)
    return Rendered(embeds=[notice_embed(text, NEUTRAL)], view=offer_view(m.offer, loc))


def _gallery_truth(m: GalleryTruth, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The truth of one step, in the gallery and nowhere else: a row of this kind
    addressed anywhere but the gallery is a bug, refused rather than shown."""
    if msg.recipient_kind != "gallery":
        raise ValueError(f"outbox {msg.key}: the gallery's truth addressed to a {msg.recipient_kind}")
    names = names_of(info, loc) if info else {}
    lines = gallery_text.truth_lines(list(m.events), m.rolls, names, loc, m.deal)
    colour = PHASE_COLOUR.get(m.phase, NEUTRAL)
    embeds = [discord.Embed(description=text, colour=colour) for text in gallery_text.pages(lines, loc)]
    embeds[0].title = gallery_text.title(m.step, m.round, m.phase, loc)
    embeds[-1].set_footer(text=t("gallery.truth_late" if m.late else "gallery.truth_open", loc))
    return Rendered(embeds=embeds)


def _gallery_only(msg: OutgoingMessage) -> None:
    if msg.recipient_kind != "gallery":
        raise ValueError(f"outbox {msg.key}: a gallery post addressed to a {msg.recipient_kind}")


def _predictions_open(m: PredictionsOpened, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The round's menu of predictions, in the gallery only: the first round's explains
    them whole, the later ones in a line (the gallery reads the first a few posts up)."""
    _gallery_only(msg)
    body = t("predictions.open_body" if m.round <= 1 else "predictions.open_again", loc)
    embed = discord.Embed(title=t("predictions.open_title", loc, round=m.round), description=body, colour=NEUTRAL)
    return Rendered(embeds=[embed], view=predict_view(msg.game_id, m.round, loc) if msg.game_id else None)


def _season_ended(m: SeasonEnded, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """In the channel a season was ended from: its summary and awards."""
    return Rendered(embeds=[summary_embed(m, loc)])


def _prediction_scores(m: PredictionScores, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """Each forecaster's Brier score at the end, in the gallery only (mentions in an
    embed name the person without pinging them)."""
    _gallery_only(msg)
    winners = ", ".join(t(f"faction.{w}", loc) for w in m.winners)
    lines = [t("predictions.scores_winners", loc, winners=winners)]
    for rank, row in enumerate(m.scores, 1):
        key = "predictions.score_row_one" if int(row["rounds"]) == 1 else "predictions.score_row"
        lines.append(t(key, loc, rank=rank, name=f"<@{int(row['user'])}>", brier=f"{float(row['brier']):.3f}", rounds=int(row["rounds"])))
    return Rendered(embeds=[discord.Embed(title=t("predictions.scores_title", loc), description="\n".join(lines)[:4000], colour=NEUTRAL)])


class Renderers:
    """Each message class with its renderer. ``add`` ties a class to a function of that
    class (mypy holds the two together); ``tests/service/test_messages.py`` holds that
    every kind of :mod:`bot.core.messages` has one."""

    def __init__(self) -> None:
        self._by_class: dict[type[Message], Renderer[Any]] = {}

    def add(self, cls: type[M], render: Renderer[M]) -> None:
        self._by_class[cls] = render

    def classes(self) -> set[type[Message]]:
        return set(self._by_class)

    def render(self, message: Message, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
        render: Renderer[Any] = self._by_class[type(message)]
        return render(message, msg, info, loc)


RENDERERS = Renderers()
RENDERERS.add(StepEvents, _events)
RENDERERS.add(Ending, _ending)
RENDERERS.add(PhaseStarted, _phase_started)
RENDERERS.add(PhasePrompt, _prompt)
RENDERERS.add(PhaseExplained, _phase_explained)
RENDERERS.add(LobbyPost, _lobby)
RENDERERS.add(GameStarted, _game_started)
RENDERERS.add(Sheet, _sheet)
RENDERERS.add(SeedRevealed, _seed)
RENDERERS.add(Reminder, _reminder)
RENDERERS.add(GamePaused, _simple("post.paused"))
RENDERERS.add(GameResumed, _simple("post.resumed"))
RENDERERS.add(DeadlineExtended, _simple("post.extended"))
RENDERERS.add(PlayerReplaced, _replaced)
RENDERERS.add(SeatHandedOver, _replaced)
RENDERERS.add(LobbyKicked, _lobby_kicked)
RENDERERS.add(TargetRemoved, _target_removed)
RENDERERS.add(GameCancelled, _cancelled)
RENDERERS.add(RecapPart, _recap)
RENDERERS.add(LobbyReminder, _lobby_reminder)
RENDERERS.add(AbsenceWarning, _absence_warning)
RENDERERS.add(AbsenceModerator, _absence_moderator)
RENDERERS.add(OffersExhausted, _offers_exhausted)
RENDERERS.add(SeatOffered, _seat_offer)
RENDERERS.add(GalleryTruth, _gallery_truth)
RENDERERS.add(PredictionsOpened, _predictions_open)
RENDERERS.add(PredictionScores, _prediction_scores)
RENDERERS.add(SeasonEnded, _season_ended)


def render_outgoing(msg: OutgoingMessage, info: GameInfo | None, *, locale: str | None = None) -> Rendered:
    """The message for ``msg`` in ``locale`` (default: the one the service chose). A row of
    a kind this release does not know (written by a newer one) is shown as such."""
    loc = locale or msg.locale
    try:
        message = decode(msg.payload)
    except UnknownMessageError:
        kind = str(msg.payload.get("type", ""))
        log.warning("no renderer for outbox payload type %r (%s)", kind, msg.key)
        return Rendered(embeds=[notice_embed(t("event.Unknown", loc, kind=kind), NEUTRAL)])
    return RENDERERS.render(message, msg, info, loc)
