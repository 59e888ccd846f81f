"""How play reads: a submission in words, its receipt (what changed, what is sent now,
the deadline) and /orders' "what I sent" embed. Short lines and few fields, so they read
well on a phone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

import engine
from bot.core.types import GameInfo, Receipt
from bot.i18n import t, terms
from bot.render import words
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import INFO_COLOUR, OK_COLOUR, deadline_line, names_of, phase_name


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
