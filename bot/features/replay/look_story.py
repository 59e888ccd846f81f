"""The replay's story of one round, told from the whole log after the end: the Day's
grail numbers, mean and winner; the Night in initiative order, each seat's actions with
what came of them (attacks and their rolls, skills, saves with their caster, heals,
steals, identifications and their answers); the Morning's votes and damage; every score
change with its reason. The audit events say it all; this module puts them into the
game's language (``replay.act.*`` in the catalogues).

Every line carries the seats it involves (``data-seats``), for the page's "follow one
seat" filter."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from bot.i18n import has_key, t, terms
from bot.render import words
from bot.render.events import render_event
from engine.classes import skill_names
from engine.events import Audience, Event

# Data keys holding one seat, and keys holding a list of seats.
SEAT_KEYS = frozenset({"seat", "attacker", "target", "source", "thief", "victim", "winner", "from_seat", "grappler", "subject", "caster", "owner", "holder", "druid"})
SEAT_LIST_KEYS = frozenset({"order", "tied", "hurt", "targets", "seats"})
WORD_KEYS = frozenset({"skill", "why", "cause", "reason"})
# What a seat was told that the audit trail does not already say: answers and wounds.
TOLD = frozenset({"IdentificationAnswered", "BardicKnowledge", "SpeakWithDead", "WoundedNow", "Recovered", "StillWounded", "CompanionDied", "OrdersNotDone"})
# Kinds the story leaves out: said by another line (the public post of a death, the
# private copy of a blow), or shown elsewhere on the page (the end, the deal).
SKIPPED = frozenset({"GameEnded", "InitiativeRolled", "ActionTaken", "SpellPoints", "CleaveReady", "SubmissionDropped"})


@dataclass
class Line:
    """One line of the story: its HTML, the seats it involves, its kind of row."""

    html: str
    seats: set[int] = field(default_factory=set)
    css: str = ""
    subs: list[Line] = field(default_factory=list)

    def render(self) -> str:
        seats = set(self.seats)
        for s in self.subs:
            seats |= s.seats
        attrs = f' data-seats="{" ".join(map(str, sorted(seats)))}"' if seats else ""
        css = f' class="{self.css}"' if self.css else ""
        inner = f"<ul>{''.join(s.render() for s in self.subs)}</ul>" if self.subs else ""
        return f"<li{css}{attrs}>{self.html}{inner}</li>"


def seats_in(data: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for k, v in data.items():
        if k in SEAT_KEYS and isinstance(v, int):
            out.add(v)
        elif k in SEAT_LIST_KEYS and isinstance(v, list):
            out |= {x for x in v if isinstance(x, int)}
    return out


def reason_word(word: str, loc: str) -> str:
    """A skill, a cause or a reason as the catalogue names it."""
    key = f"replay.why.{word.replace('-', '_').replace(' ', '_')}"
    if has_key(key):
        return t(key, loc)
    skill = skill_names().get(word.replace("-", "_"))
    return str(skill[loc]) if skill else word  # type: ignore[index]


def mean_text(mean: str) -> str:
    value = Fraction(mean)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


class Story:
    """Words the events of one game's steps, against the names of its seats."""

    def __init__(self, loc: str, names: dict[int, str], md_names: dict[int, str], inline: Any) -> None:
        self.loc, self.names, self.md_names, self.inline = loc, names, md_names, inline

    def seat(self, seat: int | None) -> str:
        return escape(words.seat_label(seat, self.names)) if seat is not None else escape(t("replay.nobody", self.loc))

    def seats(self, seats: list[int]) -> str:
        return escape(words.listing((words.seat_label(s, self.names) for s in seats), self.loc)) if seats else escape(t("replay.nobody", self.loc))

    def fields(self, data: dict[str, Any]) -> dict[str, Any]:
        """The event's data as words (escaped HTML) for a catalogue line."""
        out: dict[str, Any] = {}
        for k, v in data.items():
            if k in SEAT_KEYS and (v is None or isinstance(v, int)):
                out[k] = self.seat(v)
            elif k in SEAT_LIST_KEYS and isinstance(v, list):
                out[k] = self.seats(v)
            elif k in WORD_KEYS and isinstance(v, str):
                out[k] = escape(reason_word(v, self.loc))
            elif k == "state" and isinstance(v, str):
                out[k] = escape(terms.state(v, self.loc))
            elif k == "faction" and isinstance(v, str):
                out[k] = escape(terms.faction(v, self.loc))
            elif isinstance(v, bool):
                out[k] = escape(t("replay.yes" if v else "replay.no", self.loc))
            else:
                out[k] = escape(str(v))
        return out

    def verdict(self, ok: bool, good: str = "replay.ok", bad: str = "replay.ko") -> str:
        return f'<span class="{"ok" if ok else "ko"}">{escape(t(good if ok else bad, self.loc))}</span>'

    def line(self, e: Event, rolls: dict[str, list[dict[str, Any]]]) -> Line | None:
        """The event's line, or None when another line already says it."""
        d, k, loc = e.data, e.kind, self.loc
        if k in SKIPPED:
            return None
        if e.audience is Audience.PUBLIC:
            counted = {int(c["seat"]) for c in d.get("counts") or [] if isinstance(c, dict) and "seat" in c}
            return Line(self.inline(render_event(e, loc, self.md_names)), seats_in(d) | counted, "public")
        if e.audience is Audience.PRIVATE:
            if k not in TOLD or e.seat is None:
                return None
            told = self.inline(render_event(e, loc, self.md_names))
            return Line(t("replay.act.told", loc, name=self.seat(e.seat), line=told), {e.seat} | seats_in(d), "told")
        if k == "AttackRolled":
            target = self.seat(d["target"])
            if d.get("companion") and d.get("why") != "companion":
                target = escape(t("replay.why.wolf_of", loc, name=words.seat_label(d["target"], self.names)))
            text = t("replay.act.AttackRolled", loc, attacker=self.seat(d["attacker"]), target=target, why=escape(reason_word(str(d["why"]), loc)), roll=d["roll"], need=d["need"])
            return Line(f"{text} {self.verdict(bool(d['hit']), 'replay.hit', 'replay.miss')}", seats_in(d), "roll")
        if k == "StealRolled":
            text = t("replay.act.StealRolled", loc, thief=self.seat(d["thief"]), victim=self.seat(d["victim"]), chance=d["chance"])
            roll = _take(rolls, f"steal:{d['victim']}")
            if roll:
                text += " " + t("replay.act.rolled", loc, roll=roll["result"])
            return Line(f"{text} {self.verdict(bool(d['success']))}", seats_in(d), "roll")
        if k in ("SpellCast", "SpellFizzled"):
            return self.spell(e, rolls)
        if k == "GrailAllocated":
            numbers = words.listing((f"{words.seat_label(int(s), self.names)}: {n}" for s, n in d["numbers"].items()), loc)
            text = t("replay.act.GrailAllocated", loc, numbers=escape(numbers), mean=mean_text(str(d["mean"])), winner=self.seat(d["winner"]))
            if len(d.get("tied") or []) > 1:
                text += " " + t("replay.act.grail_tied", loc, tied=self.seats(d["tied"]))
            return Line(text, {int(s) for s in d["numbers"]} | seats_in(d), "day")
        if k == "VoteDetail":
            return None  # worded by :meth:`votes`, one line a voter
        if k == "ScoreChanged":
            sign = f"{int(d['points']):+d}"
            who = t("replay.act.score_by", loc, name=self.seat(d["seat"])) if d.get("seat") is not None else ""
            text = t("replay.act.ScoreChanged", loc, faction=f'<span class="f-{escape(d["faction"])}">{escape(terms.faction(d["faction"], loc))}</span>', points=sign, reason=escape(reason_word(str(d["reason"]), loc)), by=who)
            return Line(text, seats_in(d), "score")
        key = f"replay.act.{k}"
        if k == "DamageDealt" and d.get("source") is None:  # the vote's: nobody dealt it
            key = "replay.act.DamageDealt_unsourced"
        if has_key(key):
            try:
                return Line(t(key, loc, **self.fields(d)), seats_in(d))
            except (KeyError, ValueError):
                pass
        return Line(escape(k) + "".join(f" {escape(str(a))}={v}" for a, v in self.fields(d).items()), seats_in(d))

    def spell(self, e: Event, rolls: dict[str, list[dict[str, Any]]]) -> Line:
        d, loc = e.data, self.loc
        why = str(d["why"])
        on = d.get("targets")
        whom = self.seats(on) if isinstance(on, list) else self.seat(d.get("target"))
        text = t("replay.act.SpellCast", loc, caster=self.seat(d["caster"]), spell=escape(reason_word(why, loc)), target=whom)
        details = []
        if "success" in d:
            details.append(self.verdict(bool(d["success"])))
        if "victim" in d:
            details.append(t("replay.act.victim", loc, victim=self.seat(d["victim"])))
        if "dodged" in d:
            roll = _take(rolls, f"{why}-reflex:{d.get('target')}")
            save = t("replay.act.save", loc, target=self.seat(d.get("target")))
            if roll:
                save += " " + t("replay.act.rolled_need", loc, roll=roll["result"], need=roll.get("need", "?"))
            details.append(f"{save} {self.verdict(bool(d['dodged']), 'replay.saved', 'replay.not_saved')}")
        if "damage" in d:
            details.append(t("replay.act.damage", loc, amount=d["damage"]))
        if "gained" in d:
            details.append(t("replay.act.healed", loc, amount=d["gained"]))
        if "reason" in d:
            details.append(escape(t("replay.act.fizzled", loc, reason=reason_word(str(d["reason"]), loc))))
        elif e.kind == "SpellFizzled":
            details.append(escape(t("replay.act.fizzled_plain", loc)))
        if details:
            text += t("replay.act.then", loc) + t("replay.act.sep", loc).join(details)
        return Line(text, seats_in(d), "roll")

    def action(self, d: dict[str, Any]) -> Line:
        """A seat's turn: its action, the events that follow it hang below."""
        loc = self.loc
        targets = d.get("targets") or []
        text = t("replay.act.ActionTaken", loc, seat=self.seat(d["seat"]), skill=f"<strong>{escape(reason_word(str(d['skill']), loc))}</strong>")
        if targets:
            text += " → " + self.seats(targets)
        if d.get("amount") is not None:
            text += " " + escape(t("replay.act.amount", loc, amount=d["amount"]))
        return Line(text, seats_in(d), "action")

    def votes(self, d: dict[str, Any]) -> list[Line]:
        votes = sorted((int(v), int(target)) for v, target in d["votes"].items() if target is not None)
        return [Line(t("replay.act.vote", self.loc, voter=self.seat(v), target=self.seat(target)), {v, target}, "vote") for v, target in votes]

    def step(self, events: list[Event], rolls: list[dict[str, Any]]) -> list[Line]:
        """The lines of one step: a Night grouped by turns (each action with what came of
        it), any other step in the order its events came."""
        queue: dict[str, list[dict[str, Any]]] = {}
        for r in rolls:
            queue.setdefault(str(r.get("why", "")), []).append(r)
        out: list[Line] = []
        turn: Line | None = None
        for e in events:
            if e.kind == "InitiativeRolled":
                order = [int(s) for s in e.data.get("order") or []]
                out.append(Line(t("replay.act.initiative", self.loc, order=self.seats(order)), set(order), "initiative"))
                continue
            if e.kind == "ActionTaken":
                turn = self.action(e.data)
                out.append(turn)
                continue
            if e.kind == "VoteDetail":
                out.extend(self.votes(e.data))
                continue
            line = self.line(e, queue)
            if line is None:
                continue
            if turn is not None and line.css not in ("public", "score", "told"):
                turn.subs.append(line)
            else:
                out.append(line)
        return out


def _take(rolls: dict[str, list[dict[str, Any]]], why: str) -> dict[str, Any] | None:
    found = rolls.get(why)
    return found.pop(0) if found else None
