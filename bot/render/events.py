"""One event → one localized line.

Special cases word events whose data needs shaping (lists, nested choices); every other
kind renders ``event.<Kind>`` with its data, enriched so that ``faction``, ``trait``,
``class_id``, ``state``, ``seat`` and ``target`` values arrive translated or named
(``{faction_name}``, ``{trait_name}``, ``{class_name}``, ``{state_name}``, ``{name}``,
``{target_name}``). Class skills can therefore add private news with only a catalogue entry.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import has_key, t, terms
from bot.render import words
from engine.events import Event


def enrich(data: dict[str, Any], locale: str | None, names: dict[int, str]) -> dict[str, Any]:
    out = dict(data)
    if isinstance(data.get("faction"), str):
        out["faction_name"] = terms.faction(data["faction"], locale)
    if isinstance(data.get("trait"), str):
        out["trait_name"] = terms.trait(data["trait"], locale)
    if isinstance(data.get("class_id"), str):
        out["class_name"] = terms.class_name(data["class_id"], locale)
    if isinstance(data.get("state"), str):
        out["state_name"] = terms.state(data["state"], locale)
    if isinstance(data.get("seat"), int):
        out.setdefault("name", names.get(data["seat"], f"#{data['seat']}"))
    if isinstance(data.get("target"), int):
        out["target_name"] = words.seat_label(data["target"], names)
    return out


def render_event(event: Event, locale: str | None, names: dict[int, str]) -> str:
    d = event.data
    k = event.kind
    if k == "GrailTaken" and d.get("from_body"):
        return t("event.GrailTakenFromBody", locale)
    if k == "SpellPoints" and not d.get("gained"):
        return t("event.SpellPointsLeft", locale, **d)
    if k == "YouDied" and "amount" in d:
        return t("event.YouDiedBlow", locale, amount=d["amount"])
    if k == "YouDied" and d.get("how") == "wound":
        return t("event.YouDiedWound", locale)
    if k == "DamageTaken" and d.get("cause") == "vote":
        return t("event.DamageTakenVote", locale, **d)
    if k == "IdentificationAnswered":
        confirmed = d.get("confirmed") or []
        if not confirmed:
            return t("event.IdentificationNone", locale)
        parts = [
            t(f"event.Confirm{g['what'].capitalize()}", locale, name=words.seat_label(g["target"], names), value=terms.guess_value(g["what"], g["value"], locale))
            for g in confirmed
        ]
        return t("event.IdentificationAnswered", locale, confirmed=words.clauses(parts, locale))
    if k == "PlayerLeft":
        if "class_id" in d:
            return t(
                "event.PlayerLeftRevealed",
                locale,
                name=words.player_name(d["name"]),
                seat=d["seat"],
                faction=terms.faction(d["faction"], locale),
                class_name=terms.class_name(d["class_id"], locale),
            )
        return t("event.PlayerLeft", locale, name=words.player_name(d["name"]), seat=d["seat"])
    if k == "FactionWipedOut":
        return t("event.FactionWipedOut", locale, faction=terms.faction(d["faction"], locale))
    if k == "VotesCounted":
        return render_votes(d, locale, names)
    if k == "SpeakWithDead":
        lines = [
            t("event.SpeakWithDeadLine", locale, name=words.seat_label(x["seat"], names), faction=terms.faction(x["faction"], locale))
            for x in d.get("dead", [])
        ]
        return t("event.SpeakWithDead", locale, dead=words.clauses(lines, locale))
    key = f"event.{k}"
    if not has_key(key):
        return t("event.Unknown", locale, kind=k)
    return t(key, locale, **enrich(d, locale, names))


def render_votes(d: dict[str, Any], locale: str | None, names: dict[int, str]) -> str:
    counts = d.get("counts") or []
    if not counts:
        return t("event.VotesNone", locale)
    # The counts in bold: an escaped name cannot be bold, so no name can pass for a count.
    listing = words.listing((f"{words.seat_label(c['seat'], names)} **×{c['votes']}**" for c in counts), locale)
    line = t("event.VotesCounted", locale, counts=listing)
    if "hurt" not in d:  # house rule: the one who takes the damage is told privately
        return line + "\n" + t("event.VoteHurtPrivate", locale)
    hurt = d.get("hurt") or []
    if hurt:
        hurt_names = words.listing((words.seat_label(s, names) for s in hurt), locale)
        line += "\n" + t("event.VoteHurt", locale, names=hurt_names, count=len(hurt))
    else:
        line += "\n" + t("event.VoteNobodyHurt", locale)
    return line


def render_lines(events: list[Event], locale: str | None, names: dict[int, str]) -> list[str]:
    """Every event's line, in order; GameEnded is left to the scoreboard."""
    return [render_event(e, locale, names) for e in events if e.kind != "GameEnded"]
