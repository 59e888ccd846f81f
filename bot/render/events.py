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
        if not out["name"]:
            out["name"] = words.shown_name("", locale)
    if isinstance(data.get("target"), int):
        out["target_name"] = words.seat_label(data["target"], names)
    return out


# News that speaks of the rounds to come, kept out of the report of the step that ended
# the game: a departure's "your faction may still win" (its own line, after the death),
# and the kinds worded otherwise (``event.final.<Kind>``; empty: left out).
DEPARTURES = ("YouDied", "YouWereRemoved")


def render_event(event: Event, locale: str | None, names: dict[int, str], *, final: bool = False) -> str:
    """``event``'s line. ``final``: the game ended in this step, so nothing advises a
    round to come (the line may then be empty: left out by the caller)."""
    line = _line(event, locale, names, final)
    if event.kind in DEPARTURES and not final:
        line += "\n" + t("event.advice.departed", locale)
    return line


def _line(event: Event, locale: str | None, names: dict[int, str], final: bool) -> str:
    d = event.data
    k = event.kind
    if final and has_key(f"event.final.{k}"):
        return t(f"event.final.{k}", locale, **enrich(d, locale, names))
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
                player=words.seat_name(d["seat"], words.shown_name(d["name"], locale)),
                faction=terms.faction(d["faction"], locale),
                class_name=terms.class_name(d["class_id"], locale),
            )
        return t("event.PlayerLeft", locale, player=words.seat_name(d["seat"], words.shown_name(d["name"], locale)))
    if k == "IndomitableSaved" and "amount" not in d:  # stored before the blow was named
        return t("event.IndomitableSavedUnnamed", locale)
    if k == "OrdersNotDone":
        skills = words.listing((order_name(d.get("class_id"), s, locale) for s in d.get("skills", [])), locale)
        return t("event.OrdersNotDone", locale, skills=skills, reason=t(f"event.not_done.{d.get('reason')}", locale))
    if k == "YourTurn":
        return render_turn(d, locale, names)
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


def order_name(class_id: str | None, skill_id: str, locale: str | None) -> str:
    """An order by its name: the attack, letting go, or a skill of the player's class."""
    if skill_id in ("attack", "release"):
        return t(f"reply.skill.{skill_id}", locale)
    try:
        return terms.skill_name(class_id, skill_id, locale) if class_id else skill_id
    except KeyError:
        return skill_id


def render_turn(d: dict[str, Any], locale: str | None, names: dict[int, str]) -> str:
    """One order of the player's own turn, as given (engine.night.turns): what it
    was and whom it named; an attack says that its outcome is never told (R11)."""
    skill = order_name(d.get("class_id"), d["skill"], locale)
    targets = words.listing((words.seat_label(s, names) for s in d.get("targets") or ()), locale)
    order = t("event.turn.order", locale, skill=skill, targets=targets) if targets else skill
    if d.get("amount") is not None:
        order += t("reply.sub.amount", locale, count=d["amount"])
    if d["skill"] == "attack":
        order += t("event.turn.attack_note", locale)
    return t("event.YourTurn" if d.get("first") else "event.YourTurnThen", locale, order=order)


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


def render_lines(events: list[Event], locale: str | None, names: dict[int, str], *, final: bool = False) -> list[str]:
    """Every event's line, in order; GameEnded is left to the scoreboard, and a line
    ``final`` leaves empty is left out."""
    lines = (render_event(e, locale, names, final=final) for e in events if e.kind != "GameEnded")
    return [line for line in lines if line]
