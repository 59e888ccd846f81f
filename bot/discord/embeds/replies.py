"""Embeds the commands answer with: receipts, what I sent, the phase status, the lobby,
the settings. Short lines and few fields, so they read well on a phone."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

import discord

import engine
from bot.core.types import HOUSE_RULES, GameInfo, GameSettings, PhaseStatus, Receipt
from bot.features.lineup.look import add_lineup_fields
from bot.features.moderation import cog_settings as game_settings
from bot.features.moderation.look import ai_count, ai_line
from bot.i18n import t, terms
from bot.render import words
from bot.render.durations import format_duration
from bot.render.fields import add_lines
from bot.render.posts import PHASE_COLOUR

OK_COLOUR = 0x15803D
INFO_COLOUR = 0x4B5563


def names_of(info: GameInfo, locale: str | None) -> dict[int, str]:
    """Seat -> name, escaped for the text of a message (``words.shown_name``)."""
    return {p.seat: words.shown_name(p.name, locale) for p in info.players if p.seat is not None}


def ts(when: datetime | None) -> int | None:
    return int(when.timestamp()) if when is not None else None


def deadline_line(when: datetime | None, locale: str) -> str:
    stamp = ts(when)
    return f"<t:{stamp}:R>" if stamp else t("reply.no_deadline", locale)


def closing_line(when: datetime | None, locale: str) -> str:
    """When the phase closes, in running text: "closes in 2 hours", "2小时后截止"."""
    stamp = ts(when)
    return t("reply.closes", locale, when=f"<t:{stamp}:R>") if stamp else t("reply.closes_manual", locale)


def phase_name(phase: str | None, locale: str) -> str:
    return t(f"phase.{phase}", locale) if phase in ("day", "dusk", "morning", "over") else t("reply.lobby_phase", locale)


def skill_label(class_id: str | None, skill_id: str, locale: str) -> str:
    if skill_id in ("attack", "release"):
        return t(f"reply.skill.{skill_id}", locale)
    if class_id is None:
        return skill_id
    try:
        return terms.skill_name(class_id, skill_id, locale)
    except KeyError:
        return skill_id


def describe_submission(kind: str, payload: Mapping[str, Any], names: dict[int, str], class_id: str | None, locale: str) -> str:
    """One submission in words (the sender's own eyes only)."""

    def label(seat: Any) -> str:
        return words.seat_label(int(seat), names)

    if kind == "grail":
        return t("reply.sub.grail", locale, number=payload.get("number"))
    if kind == "vote":
        return t("reply.sub.vote", locale, player=label(payload.get("target", 0)))
    if kind == "identify":
        guesses = payload.get("guesses") or []
        if not guesses:
            return t("reply.sub.none", locale)
        return "\n".join(
            t("reply.sub.guess", locale, player=label(g["target"]), value=terms.guess_value(g["what"], g["value"], locale))
            for g in guesses
        )
    lines = []
    for a in payload.get("actions") or []:
        targets = words.listing((label(x) for x in a.get("targets") or []), locale)
        line = t("reply.sub.action", locale, skill=skill_label(class_id, a["skill"], locale), targets=targets or "—")
        if a.get("amount") is not None:
            line += t("reply.sub.amount", locale, count=a["amount"])
        lines.append(line)
    toggles = payload.get("toggles") or []
    if toggles:
        lines.append(t("reply.sub.toggles", locale, skills=words.listing((skill_label(class_id, s, locale) for s in toggles), locale)))
    # Empty orders are sent only by passing ("nothing tonight"): they count as sent.
    return "\n".join(lines) or t("reply.sub.pass", locale)


def _pieces(kind: str, payload: Mapping[str, Any]) -> dict[tuple[Any, ...], Any]:
    """A Dusk submission's pieces by what identifies each (a guess by its seat and kind, an
    action by its skill, a toggle by its skill), with what each says."""
    if kind == "identify":
        return {(g["target"], g["what"]): g["value"] for g in payload.get("guesses") or []}
    pieces: dict[tuple[Any, ...], Any] = {
        ("action", a["skill"]): (tuple(a.get("targets") or ()), a.get("amount")) for a in payload.get("actions") or []
    }
    pieces |= {("toggle", s): True for s in payload.get("toggles") or []}
    return pieces


def receipt_change(kind: str, before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> tuple[str, dict[str, int]]:
    """What a submission changed against what was stored before it: ``stored`` (nothing
    was), ``unchanged``, ``changed`` (a grail number or a vote), or for the pieces of a
    Dusk ``added``, ``replaced``, ``withdrawn``, ``passed`` (orders emptied: nothing
    tonight) and ``updated`` (several kinds of change at once); with the counts."""
    if before is None:
        return "stored", {}
    if dict(before) == dict(after):
        return "unchanged", {}
    if kind in ("grail", "vote"):
        return "changed", {}
    old, new = _pieces(kind, before), _pieces(kind, after)
    counts = {
        "added": sum(1 for k in new if k not in old),
        "replaced": sum(1 for k in new if k in old and new[k] != old[k]),
        "withdrawn": sum(1 for k in old if k not in new),
    }
    if kind == "orders" and not new:
        return "passed", {}
    done = [k for k, n in counts.items() if n]
    if len(done) == 1:
        return done[0], {"count": counts[done[0]], "total": len(new)}
    return "updated", {}


def receipt_embed(receipt: Receipt, names: dict[int, str], class_id: str | None, locale: str) -> discord.Embed:
    """A submission's receipt: its title says what changed (added, replaced, withdrawn...),
    its body lists everything of the kind now sent."""
    change, counts = receipt_change(receipt.kind, receipt.before, receipt.submission)
    what = t(f"reply.kind.{receipt.kind}", locale)
    params: dict[str, Any] = {"what": what, **counts}
    if change == "changed" and receipt.before is not None:
        was = receipt.before
        params["before"] = str(was.get("number")) if receipt.kind == "grail" else words.seat_label(int(was.get("target", 0)), names)
    title = t(f"reply.receipt.{change}", locale, **params)
    embed = discord.Embed(title=title, description=describe_submission(receipt.kind, receipt.submission, names, class_id, locale), colour=OK_COLOUR)
    embed.add_field(name=t("reply.deadline", locale), value=deadline_line(receipt.deadline, locale), inline=True)
    if receipt.all_sent:
        embed.set_footer(text=t("reply.receipt.all_sent", locale))
    return embed


def sent_embed(
    sent: Mapping[str, Mapping[str, Any]], info: GameInfo, class_id: str | None, locale: str, *, unread: int = 0
) -> discord.Embed:
    """/orders: what I have sent this phase (and, first, the messages waiting in /inbox)."""
    names = names_of(info, locale)
    embed = discord.Embed(
        title=t("reply.orders.title", locale, phase=phase_name(info.phase, locale), round=info.round),
        colour=PHASE_COLOUR.get(info.phase or "", INFO_COLOUR),
        description=t("reply.inbox.waiting", locale, count=unread) if unread else None,
    )
    for kind in engine.KINDS_TAKEN.get(info.phase or "", ()):
        value = describe_submission(kind, sent[kind], names, class_id, locale) if kind in sent else t("reply.orders.nothing", locale)
        embed.add_field(name=t(f"reply.kind.{kind}", locale), value=value[:1024], inline=False)
    embed.add_field(name=t("reply.deadline", locale), value=deadline_line(info.deadline, locale), inline=False)
    embed.set_footer(text=t("reply.orders.hint", locale))
    return embed


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


def player_lines(info: GameInfo) -> list[str]:
    lines = []
    for i, p in enumerate(info.players, start=1):
        seat = p.seat if p.seat is not None else i
        lines.append(f"{seat}. {words.player_name(p.name)}" + ("" if p.alive else " 💀"))
    return lines


def settings_lines(s: GameSettings, locale: str, ai: int | None = None) -> str:
    """The settings, one line each; ``ai``: how many seats the AI holds now (by default
    the fixed count the settings ask for)."""
    return "\n".join(game_settings.lines(s, locale, s.ai_seats if ai is None else ai))


def house_rule_lines(s: GameSettings, locale: str) -> list[str]:
    """The game's house rules and its line-up, one line each, as the options' choices name them."""
    return game_settings.lines(s, locale, s.ai_seats, names=(*HOUSE_RULES, "lineup"))


def start_line(info: GameInfo, locale: str) -> str | None:
    """A lobby's start time and what happens at it, if it has one."""
    if info.start_at is None or info.status != "lobby":
        return None
    return t("lobby_start.line", locale, ts=ts(info.start_at), min=6)


def settings_embed(info: GameInfo, locale: str, quiet_dead: bool | None = None) -> discord.Embed:
    embed = discord.Embed(title=t("reply.settings.title", locale, game=info.id), description=settings_lines(info.settings, locale, ai_count(info)), colour=INFO_COLOUR)
    if quiet_dead is not None:
        embed.description = (embed.description or "") + "\n" + t("reply.settings.quiet_dead", locale, value=t("reply.yes" if quiet_dead else "reply.no", locale))
    start = start_line(info, locale)
    if start:
        embed.description = (embed.description or "") + "\n" + start
    return embed


def lobby_embed(info: GameInfo, locale: str) -> discord.Embed:
    """The public lobby post (the game's language), updated as players join."""
    embed = discord.Embed(
        title=t("reply.lobby.title", locale, game=info.id),
        description=t("reply.lobby.body", locale, moderator=f"<@{info.moderator_id}>", min=6, max=info.settings.max_players),
        colour=PHASE_COLOUR["day"],
    )
    add_lines(embed, t("reply.players", locale, count=len(info.players)), player_lines(info), empty=t("reply.lobby.empty", locale))
    embed.add_field(name=t("reply.settings.short", locale), value=settings_lines(info.settings, locale, ai_count(info)), inline=False)
    start = start_line(info, locale)
    if start:
        embed.add_field(name=t("lobby_start.field", locale), value=start, inline=False)
    if info.status == "lobby":
        add_lineup_fields(embed, info.odds, locale)
    if info.status != "lobby":
        embed.set_footer(text=t("reply.lobby.closed", locale))
    else:
        embed.set_footer(text=t("post.seed_sha", locale, sha=info.seed_sha256[:16] + "…"))
    return embed


def notice_embed(text: str, colour: int = OK_COLOUR) -> discord.Embed:
    return discord.Embed(description=text[:4096], colour=colour)
