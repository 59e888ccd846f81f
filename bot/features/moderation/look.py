"""How moderation reads: the settings lines that say more than one setting's value (the
phases' lengths, the deadline hours, the reminder with its warning, the absence policy and
the AI's seats; the one-value lines are made by the settings' declaration,
``game_settings``, and the settings embed is ``look_settings``'), /mod status (who has
sent what, each seat's misses, the standby list) and the notices of a seat changing hands
or of a player removed whom a vote, orders or a guess named."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import UTC, datetime

import discord

import engine
from bot.core.messages import PlayerReplaced, SeatHandedOver, TargetRemoved
from bot.core.outbox import OutgoingMessage
from bot.core.time_zones import NIGHT, local, next_at_hour
from bot.core.types import GameInfo, GameSettings, PhaseStatus
from bot.features.ai_seats.ai_seats import AI_MARK
from bot.i18n import t
from bot.render import words
from bot.render.durations import format_duration
from bot.render.fields import add_lines
from bot.render.outgoing import RENDERERS, Rendered, notice, params_of
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import INFO_COLOUR, deadline_line, phase_name, player_lines


def durations_line(s: GameSettings, locale: str) -> str:
    """The three phases' lengths, in one line."""
    return t(
        "reply.settings.durations",
        locale,
        day=format_duration(s.day_seconds, locale),
        dusk=format_duration(s.dusk_seconds, locale),
        morning=format_duration(s.morning_seconds, locale),
    )


def deadline_hours_line(s: GameSettings, locale: str, now: datetime | None = None) -> str | None:
    """The deadline hours, in the zone they were typed in and, through Discord's
    timestamps, in each reader's own clock (the next time at each); None without any."""
    if not s.deadline_hours:
        return None
    when = now or datetime.now(UTC)
    hours = words.listing([f"{h:02d}:00" for h in s.deadline_hours], locale)
    yours = words.listing([f"<t:{int(next_at_hour(when, h, s.deadline_zone).timestamp())}:t>" for h in s.deadline_hours], locale)
    return t("reply.settings.deadline_hours", locale, hours=hours, zone=s.deadline_zone, yours=yours, min=12)


def clock_line(name: str, zone: str, s: GameSettings, locale: str, now: datetime | None = None) -> str:
    """What the deadline hours are on one player's clock (a night hour marked 🌙)."""
    when = now or datetime.now(UTC)
    times = []
    for h in s.deadline_hours:
        there = local(next_at_hour(when, h, s.deadline_zone), zone)
        times.append(f"{there:%H:%M}{' 🌙' if there.hour in NIGHT else ''}")
    return t("reply.settings.clock_line", locale, name=words.player_name(name), zone=zone, times=" · ".join(times))


def reminder_text(s: GameSettings, locale: str) -> str:
    """The reminder's lead, with a warning when some phase is too short to get one (the
    reminder would fall before the phase opens)."""
    lead = format_duration(s.reminder_lead_seconds, locale)
    if s.reminder_lead_seconds >= min(s.day_seconds, s.dusk_seconds, s.morning_seconds):
        return t("reply.settings.reminder_too_long", locale, value=lead)
    return lead


def reminder_line(s: GameSettings, locale: str) -> str:
    value = reminder_text(s, locale) if s.reminder_lead_seconds else t("reply.no", locale)
    return t("reply.settings.reminder", locale, value=value)


def policy_text(s: GameSettings, locale: str) -> str:
    """The absence policy's settings line: when it acts, what it does, a standby's time."""
    if not s.absence_misses:
        return t("absence.setting", locale, value=t("absence.setting_off", locale))
    action = t(f"cmd.choice.absence_{s.absence_action}", locale)
    offer = format_duration(s.offer_seconds, locale)
    return t("absence.setting", locale, value=t("absence.setting_on", locale, count=s.absence_misses, action=action, offer=offer))


def ai_count(info: GameInfo) -> int:
    """How many of the table's (or the lobby's) seats the AI holds."""
    return sum(1 for p in info.players if not p.user_id and p.name.startswith(AI_MARK))


def ai_line(s: GameSettings, count: int, locale: str) -> str | None:
    """The AI seats and, when the AI fills the table, to how many players; None when the
    game has neither."""
    if s.fill_to:
        return t("reply.settings.ai_fill", locale, value=count, fill=s.fill_to)
    if s.ai_seats or count:
        return t("reply.settings.ai_seats", locale, value=count)
    return None


def status_embed(
    info: GameInfo, sent: Mapping[int, tuple[str, ...]], done: Collection[int], locale: str, *, per_seat: bool = True
) -> discord.Embed:
    """/mod status: per living seat, which kinds it has sent (never what), and how many
    count as done (``done``: a wounded player at Dusk once identified, as the early close
    counts). Without ``per_seat`` (a moderator who also plays) only that count: who has
    not sent orders at Dusk could betray a wounded player."""
    if info.round == 0:  # never dealt: a lobby, open or cancelled
        title = t("reply.status.title_lobby", locale, game=info.id)
    else:
        title = t("reply.status.title", locale, game=info.id, phase=phase_name(info.phase, locale), round=info.round)
    embed = discord.Embed(
        title=title,
        colour=PHASE_COLOUR.get(info.phase or "", INFO_COLOUR),
    )
    embed.description = t(f"reply.status.{info.status}", locale)
    kinds = engine.KINDS_TAKEN.get(info.phase or "", ())
    if info.status in ("running", "paused") and kinds:
        lines = []
        for p in info.players:
            if p.seat is None or not p.alive:
                continue
            marks = " ".join(
                ("✅ " if k in sent.get(p.seat, ()) else "⬜ ") + t(f"reply.kind.{k}", locale) for k in kinds
            )
            lines.append(f"{words.seat_name(p.seat, words.player_name(p.name))} — {marks}")
        living = sum(1 for p in info.players if p.seat and p.alive)
        count = sum(1 for p in info.players if p.seat and p.alive and p.seat in done)
        sent_title = t("reply.status.sent", locale, done=count, living=living)
        add_lines(embed, sent_title, lines if per_seat else [t("reply.status.counts_only", locale)])
        if info.status == "paused":
            embed.add_field(name=t("reply.status.left", locale), value=format_duration(info.paused_remaining or 0, locale), inline=True)
        else:
            embed.add_field(name=t("reply.deadline", locale), value=deadline_line(info.deadline, locale), inline=True)
    else:
        add_lines(embed, t("reply.players", locale, count=len(info.players)), player_lines(info))
        ai_text = ai_line(info.settings, ai_count(info), locale) if info.status == "lobby" else None
        if ai_text:
            embed.description += "\n" + ai_text
    gone = [p for p in info.players if p.seat is not None and not p.alive]
    if gone:
        add_lines(embed, t("reply.status.gone", locale), [words.seat_name(p.seat or 0, words.player_name(p.name)) for p in gone])
    return embed


def absence_fields(embed: discord.Embed, st: PhaseStatus, locale: str) -> discord.Embed:
    """/mod status for moderators: each seat's misses (in a row / in all; not to a
    moderator who plays, as the sent marks) and the standby list."""
    if st.misses and not st.viewer_played:
        lines = [
            f"{words.seat_name(p.seat, words.player_name(p.name))} — {st.misses[p.seat][0]} / {st.misses[p.seat][1]}"
            for p in st.game.players
            if p.seat in st.misses and p.alive
        ]
        add_lines(embed, t("absence.misses", locale), lines)
    if st.standbys:
        add_lines(embed, t("absence.standbys", locale), [f"{i}. {words.player_name(n)}" for i, n in enumerate(st.standbys, 1)])
    return embed


def _replaced(m: PlayerReplaced | SeatHandedOver, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    params = params_of(m, msg)
    names: dict[str, str] = {k: words.shown_name(str(params[k]), loc) for k in ("old_name", "new_name") if k in params}
    key = "reply.post.seat_handed_over" if isinstance(m, SeatHandedOver) else "reply.post.replaced"
    return notice(key, {**params, **names}, loc)


def _target_removed(m: TargetRemoved, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """Your vote, orders or guess named a player a moderator has removed."""
    what = {"vote": "vote", "orders": "orders"}.get(m.what, "identify")
    return notice(f"reply.post.target_removed_{what}", {**params_of(m, msg), "name": words.seat_name(m.seat, words.player_name(m.name))}, loc)


RENDERERS.add(PlayerReplaced, _replaced)
RENDERERS.add(SeatHandedOver, _replaced)
RENDERERS.add(TargetRemoved, _target_removed)
