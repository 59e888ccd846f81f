"""Reading the bot's messages as a player does: text in, facts out.

A scripted player knows the game's language the way a person does, so it reads the
bot's posts with the bot's own message catalogues (``bot/i18n/*.toml``) turned into
patterns: "💀 #3 carol has left the game." becomes ``("PlayerLeft", seat=3)``.
Nothing here looks at the database or the engine state; the only inputs are the
messages a Discord user would see (their DMs, the game channel, their own ephemeral
replies) and the public class catalogue (``/rules`` shows the same).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.i18n import LOCALES, terms
from bot.i18n.catalog import SINGULAR
from bot.i18n.catalog import catalogue as i18n_catalogue
from bot.render import words
from discord_emulator.state import Message
from engine.classes import catalogue as class_catalogue
from engine.classes import class_spec
from engine.values import FACTIONS, Trait

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
ERROR_COLOUR = 0xB91C1C


def template_regex(template: str) -> re.Pattern[str]:
    """A catalogue template as a full-match pattern; each ``{name}`` is a lazy group."""
    parts: list[str] = []
    seen: set[str] = set()
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[pos : m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.S)


@cache
def pattern(key: str, locale: str) -> re.Pattern[str]:
    return template_regex(i18n_catalogue(locale)[key])


def match(key: str, text: str, locales: Iterable[str] = LOCALES) -> dict[str, str] | None:
    """The parameters of ``key``'s text if ``text`` is exactly that message (in its plural
    or, where the language has one, its singular form)."""
    for loc in locales:
        for form in (key, key + SINGULAR):
            if form not in i18n_catalogue(loc):
                continue
            m = pattern(form, loc).fullmatch(text.strip())
            if m:
                return m.groupdict()
    return None


NEWS_TITLES = ("post.private_title_day", "post.private_title_dusk", "post.private_title_morning", "post.private_title")


def news_title(text: str) -> dict[str, str] | None:
    """The round (and nothing else) of a private news embed's title, whichever phase's."""
    for key in NEWS_TITLES:
        got = match(key, text)
        if got:
            return got
    return None


def text_of(key: str, locale: str) -> str:
    return i18n_catalogue(locale)[key]


# -- vocabulary: localized names back to ids -------------------------------------------
@cache
def vocabulary() -> dict[str, dict[str, str]]:
    """Lower-cased localized name -> id, for each kind of noun, both languages."""
    out: dict[str, dict[str, str]] = {"class": {}, "faction": {}, "trait": {}, "state": {}}
    for loc in LOCALES:
        for class_id in class_catalogue():
            out["class"][terms.class_name(class_id, loc).casefold()] = class_id
        for f in FACTIONS:
            out["faction"][terms.faction(f.value, loc).casefold()] = f.value
        for tr in Trait:
            out["trait"][terms.trait(tr.value, loc).casefold()] = tr.value
        for state in ("dazed", "shaken", "grappled", "fatigued", "hypnotic_prelude"):
            out["state"][terms.state(state, loc).casefold()] = state
    return out


def lookup(kind: str, name: str) -> str | None:
    return vocabulary()[kind].get(name.strip().casefold())


def seat_of_label(label: str) -> int | None:
    """``#3 carol`` -> 3 (how the bot names a seat in private news and lists)."""
    m = re.match(r"#(\d+)\b", label.strip())
    return int(m.group(1)) if m else None


# -- messages as text --------------------------------------------------------------------
def embed_texts(embed: dict[str, Any]) -> list[str]:
    out = []
    if (embed.get("author") or {}).get("name"):
        out.append(embed["author"]["name"])
    for key in ("title", "description"):
        if embed.get(key):
            out.append(str(embed[key]))
    for f in embed.get("fields") or []:
        out.append(f"{f.get('name', '')}: {f.get('value', '')}")
    if (embed.get("footer") or {}).get("text"):
        out.append(embed["footer"]["text"])
    return out


def message_text(message: Message) -> str:
    """Everything a reader sees in a message, as plain lines."""
    parts = [message.content] if message.content else []
    for e in message.embeds:
        parts.extend(embed_texts(e))
    return "\n".join(parts)


def lines_of(message: Message) -> Iterator[str]:
    """Every line of the content and of each embed's description and fields' values."""
    texts: list[str] = [message.content or ""]
    for e in message.embeds:
        texts += [str(e.get("title") or ""), str(e.get("description") or "")]
        texts += [str(f.get("value") or "") for f in e.get("fields") or []]
    for t in texts:
        for line in t.splitlines():
            if line.strip():
                yield line.strip()


def is_error(message: Message | None) -> bool:
    """The bot's refusals: one red embed whose text starts with ⚠️."""
    if message is None:
        return False
    return any(
        e.get("color") == ERROR_COLOUR or str(e.get("description", "")).startswith("⚠️")
        for e in message.embeds
    )


# -- facts -------------------------------------------------------------------------------
@dataclass
class Fact:
    """One thing a message said: ``kind`` is the catalogue event or post it matched."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def phase_post(message: Message) -> tuple[str, int] | None:
    """(phase, round) of a "Day 2 — send your grail number…" post, or of a phase's prompt
    (a practice game's person has it for the phase's post)."""
    for line in lines_of(message):
        for phase in ("day", "dusk", "morning"):
            for key in (f"post.{phase}", f"prompt.{phase}", *(("prompt.dusk_wounded",) if phase == "dusk" else ())):
                got = match(key, line)
                if got and str(got.get("round", "")).isdigit():
                    return phase, int(got["round"])
    return None


def is_game_over(message: Message) -> bool:
    return any(
        match("post.scoreboard_title", str(e.get("title") or "")) is not None
        or match("post.scoreboard_title_shared", str(e.get("title") or "")) is not None
        for e in message.embeds
    )


def is_ending(message: Message) -> bool:
    """A player's private ending: won, a shared win or lost."""
    return any(
        match(key, str(e.get("title") or "")) is not None
        for e in message.embeds
        for key in ("ending.title_win", "ending.title_shared", "ending.title_loss")
    )


@cache
def _list_separators() -> re.Pattern[str]:
    """What separates the items of a list in running text, in either language."""
    seps = {i18n_catalogue(loc)["ui.list_sep"].strip() for loc in LOCALES}
    return re.compile(r"\s*(?:" + "|".join(map(re.escape, sorted(seps))) + r")\s*")


def winners(message: Message) -> list[str]:
    """The winning factions of a scoreboard post (a shared win lists them as a list)."""
    for e in message.embeds:
        title = str(e.get("title") or "")
        got = match("post.scoreboard_title", title) or match("post.scoreboard_title_shared", title)
        if got:
            return [lookup("faction", w) or w for w in _list_separators().split(got["winners"])]
    return []


def table_of(message: Message) -> list[dict[str, Any]] | None:
    """The seats of "The game begins" post: ``[{seat, name, alive}]``."""
    for e in message.embeds:
        if match("reply.post.started_title", str(e.get("title") or "")) is None:
            continue
        for f in e.get("fields") or []:
            rows = []
            for line in str(f.get("value") or "").splitlines():
                m = re.match(r"(\d+)\. (.+)$", line.strip())
                if m:
                    rows.append({"seat": int(m.group(1)), "name": m.group(2), "alive": True})
            if rows:
                return rows
    return None


def public_facts(message: Message) -> list[Fact]:
    """Departures, a faction wiped out, who the vote hurt, a seat handed over to someone
    else (``SeatHandedOver``: the seat's name from now on)."""
    out: list[Fact] = []
    for line in lines_of(message):
        got = match("reply.post.replaced", line)
        if got and got["seat"].isdigit():
            out.append(Fact("SeatHandedOver", {"seat": int(got["seat"]), "name": got["new_name"], "old_name": got["old_name"]}))
            continue
        got = match("event.PlayerLeftRevealed", line)
        if got and (who := words.SEAT_NAME.fullmatch(got["player"])):
            fact = Fact("PlayerLeft", {"seat": int(who["seat"]), "name": who["name"] or ""})
            faction, class_id = (
                lookup("faction", got["faction"]),
                lookup("class", got["class_name"]),
            )
            if faction:
                fact.data["faction"] = faction
            if class_id:
                fact.data["class_id"] = class_id
            out.append(fact)
            continue
        got = match("event.PlayerLeft", line)
        if got and (who := words.SEAT_NAME.fullmatch(got["player"])):
            out.append(Fact("PlayerLeft", {"seat": int(who["seat"]), "name": who["name"] or ""}))
            continue
        got = match("event.FactionWipedOut", line)
        if got and lookup("faction", got["faction"]):
            out.append(Fact("FactionWipedOut", {"faction": lookup("faction", got["faction"])}))
            continue
        got = match("event.VoteHurt", line)
        if got:
            hurt = [s for s in (seat_of_label(x) for x in re.split("[,、]", got["names"])) if s]
            out.append(Fact("VotesCounted", {"hurt": hurt}))
    return out


def confirmation(text: str) -> dict[str, Any] | None:
    """ "#3 carol has the Holy trait" -> ``{target: 3, what: trait, value: holy}``."""
    for what in ("trait", "class", "faction"):
        got = match(f"event.Confirm{what.capitalize()}", text)
        if not got:
            continue
        seat = seat_of_label(got["name"])
        value = lookup(what, got["value"])
        if seat and value:
            return {"target": seat, "what": what, "value": value}
    return None


def private_facts(message: Message) -> list[Fact]:
    """A player's news, line by line, as the events the sim AI understands."""
    out: list[Fact] = []
    for line in lines_of(message):
        if match("event.IdentificationNone", line) is not None:
            out.append(Fact("IdentificationAnswered", {"confirmed": []}))
            continue
        got = match("event.IdentificationAnswered", line)
        if got:
            found = [confirmation(x) for x in re.split(r"[;；]\s*", got["confirmed"])]
            out.append(Fact("IdentificationAnswered", {"confirmed": [c for c in found if c]}))
            continue
        for kind in ("DamageTaken", "DamageTakenVote", "Recovered", "Healed"):
            got = match(f"event.{kind}", line)
            if got and got["hp"].lstrip("-").isdigit():
                out.append(
                    Fact(
                        "DamageTaken" if kind.startswith("Damage") else kind,
                        {"hp": int(got["hp"]), "max_hp": int(got["max_hp"])},
                    )
                )
                break
        else:
            for kind, key in (
                ("GrailWon", "GrailWon"),
                ("YouDied", "YouDied"),
                ("YouDied", "YouDiedBlow"),
                ("YouDied", "YouDiedWound"),
                ("YouDied", "YouWereRemoved"),
                ("WoundedNow", "WoundedNow"),
                ("GrailStolen", "GrailStolen"),
                ("GrailTaken", "GrailTaken"),
                ("GrailTakenFromBody", "GrailTakenFromBody"),
            ):
                if match(f"event.{key}", line) is not None:
                    out.append(Fact(kind))
                    break
            else:
                got = match("event.BardicKnowledge", line)
                if got:
                    seat, trait = (
                        seat_of_label(got["target_name"]),
                        lookup("trait", got["trait_name"]),
                    )
                    if seat and trait:
                        out.append(Fact("BardicKnowledge", {"target": seat, "trait": trait}))
                    continue
                got = match("event.SpeakWithDead", line)
                if got:
                    dead = []
                    for part in re.split(r"[;；]\s*", got["dead"]):
                        m = match("event.SpeakWithDeadLine", part)
                        if m and seat_of_label(m["name"]) and lookup("faction", m["faction"]):
                            dead.append(
                                {
                                    "seat": seat_of_label(m["name"]),
                                    "faction": lookup("faction", m["faction"]),
                                }
                            )
                    out.append(Fact("SpeakWithDead", {"dead": dead}))
    return out


def sheet_intro_seat(message: Message) -> int | None:
    """The seat in "🐺 Your character for game #1 (seat 3)…" (the DM's text, or an embed
    of its own when /inbox shows it)."""
    for text in [message.content or "", *(str(e.get("description") or "") for e in message.embeds)]:
        got = match("reply.post.sheet_intro", text)
        if got and got["seat"].isdigit():
            return int(got["seat"])
    return None


def read_sheet(message: Message, seat: int | None = None) -> dict[str, Any] | None:
    """The character sheet embed (the start-of-game DM or ``/me``) as the dict the sim
    AI's Knowledge expects (``engine.view.sheet``'s shape), from its text alone plus the
    public class catalogue. None if ``message`` carries no sheet."""
    for e in message.embeds:
        sheet = _sheet_from_embed(e)
        if sheet is None:
            continue
        author = str((e.get("author") or {}).get("name") or "")
        got = match("reply.me.seat", author)
        if got and got["seat"].isdigit():
            sheet["seat"] = int(got["seat"])
        elif seat is not None:
            sheet["seat"] = seat
        elif sheet_intro_seat(message) is not None:
            sheet["seat"] = sheet_intro_seat(message)
        return sheet
    return None


def _sheet_from_embed(e: dict[str, Any]) -> dict[str, Any] | None:
    got = match("sheet.title", str(e.get("title") or ""))
    if not got:
        return None
    class_id, faction = lookup("class", got["class_name"]), lookup("faction", got["faction"])
    if class_id is None or faction is None:
        return None
    spec = class_spec(class_id)
    sheet: dict[str, Any] = {
        "seat": 0, "name": got["name"], "class_id": class_id, "faction": faction,
        "traits": [t.value for t in spec.traits], "hp": spec.hp, "max_hp": spec.hp,
        "alive": True, "wounded": False, "known_states": [], "holds_grail": False,
        "skills": [], "identify": [s.model_dump() for s in spec.identify], "memory": {}, "confirmed": [],
    }  # fmt: skip
    used: set[str] = set()
    for f in e.get("fields") or []:
        name, value = str(f.get("name") or ""), str(f.get("value") or "")
        for line in value.splitlines():
            _sheet_line(sheet, line.strip())
        skill = _skill_field(spec, name)
        if skill is not None and skill[1]:
            used.add(skill[0])
        for loc in LOCALES:
            if name == text_of("sheet.states", loc):
                sheet["known_states"] = [
                    s for s in (lookup("state", x) for x in re.split(r"[,，、]\s*", value)) if s
                ]
            if name == text_of("reply.me.known", loc):
                sheet["confirmed"] = [c for c in (confirmation(x) for x in value.splitlines()) if c]
    sheet["skills"] = [
        {"id": s.id, "kinds": list(s.kinds), "cost": s.cost, "used": s.id in used}
        for s in spec.skills
    ]
    return sheet


def _sheet_line(sheet: dict[str, Any], line: str) -> None:
    got = match("sheet.stats", line)
    if got and got["hp"].lstrip("-").isdigit():
        sheet["hp"], sheet["max_hp"] = int(got["hp"]), int(got["max_hp"])
        return
    if match("sheet.wounded", line) is not None:
        sheet["wounded"] = True
    elif match("sheet.dead", line) is not None:
        sheet["alive"] = False
    elif match("sheet.grail", line) is not None:
        sheet["holds_grail"] = True
    else:
        for key in ("spell_points", "companion_hp", "cleave_round", "grappling"):
            got = match(f"memory.{key}", line)
            if got and got["value"].lstrip("-").isdigit():
                sheet["memory"][key] = int(got["value"])
                return


def _skill_field(spec: Any, name: str) -> tuple[str, bool] | None:
    """(skill id, used) of a skill field "Cleave (used) · active · standard action"."""
    head = name.split(" · ")[0].strip()
    for loc in LOCALES:
        used_mark = text_of("sheet.used", loc)
        bare = head.removesuffix(used_mark).strip()
        for s in spec.skills:
            if s.name[loc] == bare:
                return s.id, head.endswith(used_mark)
    return None


def game_id_of(text: str) -> int | None:
    """The game number of "🍺 Game #3 is open in this channel" (or the lobby's title)."""
    for line in text.splitlines():
        for key in ("reply.created", "reply.lobby.title"):
            got = match(key, line)
            if got and got["game"].isdigit():
                return int(got["game"])
    return None
