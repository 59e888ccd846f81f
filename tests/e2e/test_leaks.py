"""No secret in the public channel: across many seeded games, in both languages, no
class, faction or trait name, no roll, hit, HP or score, no private news and no raw
event name appears in any public post before the game-over post — except, when a
server turns reveal-on-death on, the class and faction in a departure notice.

Every public message is checked against the vocabulary of *both* languages, whatever
the game's language: a zh-CN game must not leak English words either."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from bot.i18n import LOCALES, terms
from bot.i18n.catalog import catalogue as texts
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions
from engine.classes import catalogue
from engine.values import FACTIONS, Trait
from tests.e2e.conftest import Played, play_tables, run

# Events only their seat may see; their wording must never reach the channel.
PRIVATE_EVENTS = (
    "GrailWon", "GrailStolen", "GrailTaken", "GrailTakenFromBody", "DamageTaken", "DamageTakenVote",
    "WoundedNow", "StillWounded", "Recovered", "Healed", "YouDied", "YouDiedBlow", "YouDiedWound", "YouWereRemoved", "CleaveReady", "IdentificationAnswered",
    "IdentificationNone", "ConfirmTrait", "ConfirmClass", "ConfirmFaction", "BardicKnowledge",
    "CompanionHurt", "CompanionHealed", "CompanionDied", "SpellPoints", "GrappleHeld", "GrappleEscaped",
    "IndomitableSaved", "SpeakWithDead", "Unknown",
)  # fmt: skip
# Words of dice, hits and scores, in both languages.
DICE_AND_SCORES = [
    r"\bd(?:2|3|4|6|8|10|12|20|100)\b", r"\brolls?\b", r"\brolled\b", r"\binitiative\b", r"\bhits?\b",
    r"\bmiss(?:es|ed)?\b", r"\bscores?\b", r"\bpoints?\b", r"\bHP\b", r"\bdamage\b(?! from the vote)",
    "掷出", "骰子", "先攻", "命中", "未命中", "得分", "比分", "积分", "分数", "生命值", "伤害(?!。)",
]  # fmt: skip


@cache
def secret_words() -> list[tuple[str, re.Pattern[str]]]:
    """(what, pattern) for every class, faction and trait name in both languages."""
    out = []
    for loc in LOCALES:
        names = [("class", terms.class_name(c, loc)) for c in catalogue()]
        names += [("faction", terms.faction(f.value, loc)) for f in FACTIONS]
        names += [("trait", terms.trait(t.value, loc)) for t in Trait]
        for what, name in names:
            edge = r"\b" if name.isascii() else ""
            out.append(
                (f"{what} {name!r}", re.compile(f"{edge}{re.escape(name)}{edge}", re.IGNORECASE))
            )
    return out


@cache
def private_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for loc in LOCALES:
        for kind in PRIVATE_EVENTS:
            out.append((f"event.{kind} ({loc})", reader.pattern(f"event.{kind}", loc)))
    return out


def names_a_secret(got: re.Match[str]) -> bool:
    """A private line's ``{value}`` is what it confirms: a class, faction or trait. Without
    that, "{name} is {value}" would take "⏸️ The game is paused." for a confirmation."""
    value = got.groupdict().get("value")
    return value is None or any(reader.lookup(kind, value) for kind in ("class", "faction", "trait"))


def harmless(text: str) -> str:
    """Remove the fixed sentences that legitimately speak of rolls in public: the seed's
    SHA-256 promise at the start ("…check every roll")."""
    for loc in LOCALES:
        promise = reader.pattern("post.seed_sha", loc)
        text = "\n".join(line for line in text.splitlines() if not promise.fullmatch(line.strip()))
    return text


def allowed_lines(text: str, reveal: bool) -> str:
    """Drop the public lines that may name a faction: a faction wiped out (always), and a
    departure with its class and faction (with reveal-on-death)."""
    keys = ["event.FactionWipedOut"] + (["event.PlayerLeftRevealed"] if reveal else [])
    return "\n".join(
        line
        for line in text.splitlines()
        if all(reader.match(k, line.strip()) is None for k in keys)
    )


def leaks(played: Played) -> list[str]:
    """Every leak in the public channel of one game, before its game-over post."""
    found = []
    for m in played.public:
        if reader.is_game_over(m):
            break
        lobby = any(cid.startswith("wh:join:") for cid in m.custom_ids()) or any(
            reader.match("reply.lobby.title", str(e.get("title") or "")) for e in m.embeds
        )
        text = reader.message_text(m)
        text = allowed_lines(text, played.options.reveal_on_death)
        for what, pat in secret_words():
            if pat.search(text):
                found.append(f"{what} in: {text[:300]}")
        if lobby:
            continue  # the lobby's settings speak of "score" and "die" by design
        text = harmless(text)
        for pat_text in DICE_AND_SCORES:
            if re.search(pat_text, text, re.IGNORECASE):
                found.append(f"{pat_text!r} in: {text[:300]}")
        for line in text.splitlines():
            for what, pat in private_patterns():
                got = pat.fullmatch(line.strip())
                if got and names_a_secret(got):
                    found.append(f"{what}: {line}")
            if re.search(r"\b[A-Z][a-z]+[A-Z][A-Za-z]+\b", line):
                found.append(f"a raw event name: {line}")
    return found


GAMES = [
    GameOptions(language="en-US", lean=True),
    GameOptions(language="zh-CN", vote_tie="nobody", lean=True),
    GameOptions(language="en-US", vote_tie="all", reveal_on_death=True, lean=True),
    GameOptions(language="zh-CN", reveal_on_death=True, lean=True),
]


@pytest.fixture(scope="module")
def games() -> list[Played]:
    return run(play_tables(len(GAMES), players=6, seed="leaks", options=GAMES, closed_dms=()))


def test_the_games_were_played_to_their_end(games: list[Played]):
    assert all(g.report.over for g in games)
    assert all(not g.server_errors for g in games)
    # They saw departures, votes and (with reveal on) revealed roles: the check had material.
    texts = "\n".join(t for g in games for t in g.public_texts())
    assert any(reader.match("event.VoteHurt", line) for line in texts.splitlines())
    assert any(reader.match("event.PlayerLeft", line) for line in texts.splitlines())


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_no_secret_in_the_public_channel_before_the_end(games: list[Played], index: int):
    assert leaks(games[index]) == []


def test_reveal_on_death_shows_class_and_faction_of_the_departed_only(games: list[Played]):
    revealed = [g for g in games if g.options.reveal_on_death]
    lines = [
        line for g in revealed for m in g.public if not reader.is_game_over(m)
        for line in reader.message_text(m).splitlines() if reader.match("event.PlayerLeftRevealed", line.strip())
    ]  # fmt: skip
    assert lines, "no departure was revealed in the reveal-on-death games"
    hidden = [g for g in games if not g.options.reveal_on_death]
    assert not any(
        reader.match("event.PlayerLeftRevealed", t)
        for g in hidden
        for t in "\n".join(g.public_texts()).splitlines()
    )


def test_the_check_itself_catches_a_leak(games: list[Played]):
    """A planted leak in each language is found (the check can fail)."""
    import copy

    g = copy.copy(games[0])
    m = copy.copy(g.public[2])
    for loc in LOCALES:
        m.content = texts(loc)["event.DamageTaken"].format(amount=2, hp=4, max_hp=6)
        g.public = [*games[0].public[:2], m]
        assert leaks(g), loc
        m.content = f"{terms.class_name('cleric', loc)}"
        assert leaks(g), loc


def test_a_public_sentence_shaped_like_a_confirmation_is_not_a_leak():
    """"The game is paused." reads as "{name} is {value}"; "alice is Chaotic" is a leak."""
    from types import SimpleNamespace

    from discord_emulator import Message, User

    def public(content: str) -> Any:
        m = Message(id=1, channel_id=1, guild_id=1, author=User(id=1, username="bot", bot=True), content=content)
        return SimpleNamespace(public=[m], options=SimpleNamespace(reveal_on_death=False))

    for loc in LOCALES:
        assert leaks(public(texts(loc)["post.paused"])) == [], loc
    assert leaks(public("alice is " + terms.faction("chaotic", "en-US"))) != []
