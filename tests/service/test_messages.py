"""Outbox messages and their one codec: every row as the writers before the typed
messages stored it, and every row of the databases earlier releases wrote, decodes to its
class, encodes back to the very same JSON and renders; each kind has its renderer; a
message of no declared kind is refused when it is written."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.core import messages, table
from bot.core.messages import (
    KINDS,
    GamePaused,
    Message,
    StepEvents,
    UnknownMessageError,
    decode,
    encode,
)
from bot.core.outbox import OutgoingMessage
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.discord.features import discover
from bot.i18n import LOCALES, t
from bot.render.outgoing import RENDERERS, render_outgoing
from tests.service.helpers import lobby

OLD_DBS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "old_dbs").glob("*.sqlite3"))
WHEN = "2026-11-30T14:29:00+00:00"
GRAIL_WON = {"kind": "GrailWon", "audience": "private", "seat": 4, "data": {"round": 1}}
LEFT = {"kind": "PlayerLeft", "audience": "public", "seat": None, "data": {"seat": 4, "name": "Player4"}}
ENDED = {
    "kind": "GameEnded", "audience": "public", "seat": None,
    "data": {"reason": "majority", "round": 4, "scores": {"lawful": 1, "neutral": 11, "chaotic": 6}, "winners": ["neutral"],
             "roster": [{"seat": 1, "name": "Player1", "class_id": "barbarian", "faction": "chaotic", "alive": False, "grails": 0}]},
}  # fmt: skip
SHEET = {
    "seat": 1, "name": "Player1", "class_id": "barbarian", "faction": "chaotic", "traits": ["combat"], "hp": 10,
    "max_hp": 10, "alive": True, "wounded": False, "ab": 70, "armor": 10, "dex": 10, "damage": 4, "will": 15,
    "reflex": 40, "fortitude": 80, "known_states": [], "holds_grail": False, "grails_banked": 0,
    "skills": [{"id": "rage", "kinds": ["toggle"], "cost": "none", "used": False}],
    "identify": [{"count": 1, "what": "trait", "values": ["combat", "agility"]}], "memory": {}, "confirmed": [],
}  # fmt: skip
TABLE = [{"seat": s, "name": f"Player{s}", "alive": True} for s in range(1, 7)]
SHA = "c74514d86b2c001255cecb9ae43a24f7837cf02cd07612c68cb0a6785b4e01b9"
WOUNDED = {"recover": 50, "dies": False, "tonight": True}

# (recipient, payload) as the service's writers stored them, every kind and its variants.
WRITTEN: list[tuple[str, dict[str, Any]]] = [
    ("channel", {"game_id": 1, "type": "events", "step": "advance", "round": 1, "phase": "dusk", "events": []}),
    ("channel", {"game_id": 1, "type": "events", "step": "advance", "round": 4, "phase": "dusk", "events": [LEFT, ENDED],
                 "score_history": [{"round": 1, "scores": {"lawful": 1, "neutral": 2, "chaotic": 0}}], "win_score": None}),
    ("user", {"game_id": 1, "type": "events", "step": "advance", "round": 1, "phase": "day", "seat": 4, "events": [GRAIL_WON]}),
    ("user", {"game_id": 1, "type": "events", "step": "end", "round": 4, "phase": "dusk", "seat": 4, "events": [GRAIL_WON], "final": True}),
    ("user", {"game_id": 1, "type": "events", "step": "remove", "round": 1, "phase": "dusk", "seat": 4, "events": [GRAIL_WON], "wounded": WOUNDED}),
    ("channel", {"game_id": 1, "type": "phase_started", "round": 1, "phase": "day", "deadline": WHEN}),
    ("channel", {"game_id": 1, "type": "phase_started", "round": 1, "phase": "day", "deadline": None}),
    ("user", {"game_id": 1, "type": "prompt", "round": 1, "phase": "day", "deadline": WHEN, "seat": 1, "sheet": SHEET}),
    ("user", {"game_id": 1, "type": "prompt", "round": 2, "phase": "dusk", "deadline": None, "seat": 1, "sheet": SHEET, "wounded": WOUNDED}),
    ("user", {"game_id": 1, "type": "prompt", "round": 1, "phase": "morning", "deadline": WHEN, "seat": 1, "sheet": SHEET, "tip": True}),
    ("user", {"game_id": 1, "type": "sheet", "sheet": SHEET, "tip": True}),
    ("channel", {"game_id": 1, "type": "phase_explained", "phase": "dusk"}),
    ("channel", {"game_id": 1, "type": "seed_revealed", "seed": "test-seed-0001", "seed_sha256": SHA}),
    ("channel", {"game_id": 1, "type": "game_started", "table": TABLE, "seed_sha256": SHA}),
    ("user", {"game_id": 1, "type": "sheet", "sheet": SHEET}),
    ("channel", {"game_id": 1, "type": "lobby"}),
    ("channel", {"game_id": 1, "type": "reminder", "round": 2, "phase": "morning", "deadline": WHEN, "missing": 3}),
    ("user", {"game_id": 1, "type": "reminder", "round": 2, "phase": "dusk", "deadline": WHEN, "seat": 3}),
    ("user", {"game_id": 1, "type": "reminder", "round": 2, "phase": "dusk", "deadline": None, "seat": 3, "wounded": WOUNDED,
              "in_row": 2, "left": None, "action": "notify"}),
    ("user", {"game_id": 1, "type": "reminder", "round": 2, "phase": "day", "deadline": WHEN, "seat": 3, "in_row": 1, "left": 1, "action": "ai"}),
    ("user", {"game_id": 1, "type": "ending", "seat": 2, "class_id": "monk", "faction": "lawful", "alive": True, "result": "win",
              "reason": "majority", "round": 4, "scores": {"lawful": 12, "neutral": 3, "chaotic": 6}, "winners": ["lawful"],
              "points": {"allocation": 2, "kill": 3, "survivors": 2, "total": 7}}),
    ("user", {"game_id": 1, "type": "ending", "seat": 2, "class_id": "monk", "faction": "lawful", "alive": False, "result": "loss",
              "reason": None, "round": 4, "scores": {"lawful": 1, "neutral": 11}, "winners": ["neutral"], "points": {},
              "rating": {"before": 1500.0, "after": 1487.5}}),
    ("channel", {"game_id": 1, "type": "game_paused", "round": 2, "phase": "dusk"}),
    ("channel", {"game_id": 1, "type": "game_resumed", "round": 2, "phase": "dusk"}),
    ("channel", {"game_id": 1, "type": "deadline_extended", "round": 2, "phase": "dusk", "deadline": WHEN}),
    ("channel", {"game_id": 1, "type": "player_replaced", "seat": 3, "old_name": "Player3", "new_name": "Newcomer"}),
    ("user", {"game_id": 1, "type": "seat_handed_over", "seat": 3, "new_name": "Newcomer"}),
    ("user", {"game_id": 1, "type": "lobby_kicked"}),
    ("user", {"game_id": 1, "type": "target_removed", "what": "vote", "seat": 3, "name": "Player3", "round": 2}),
    ("user", {"game_id": 1, "type": "target_removed", "what": "identify", "seat": 3, "name": "Player3", "round": 2}),
    ("channel", {"game_id": 1, "type": "game_cancelled", "reason": "cancelled"}),
    ("channel", {"game_id": 1, "type": "game_cancelled", "reason": "not_filled", "count": 4, "min": 6}),
    ("user", {"game_id": 1, "type": "game_cancelled", "reason": "channel_gone", "game": 1}),
    ("user", {"game_id": 1, "type": "game_cancelled", "reason": "channel_gone", "game": 1, "seed": "test-seed-0001", "seed_sha256": SHA}),
    ("user", {"game_id": 1, "type": "recap", "seat": 4, "part": 1, "parts": 2,
              "entries": [{"round": 1, "phase": "day", "step": "advance", "public": [], "private": [GRAIL_WON]}]}),
    ("user", {"game_id": 1, "type": "recap", "seat": 4, "part": 2, "parts": 2, "entries": []}),
    ("user", {"game_id": 1, "type": "lobby_reminder", "start_at": WHEN, "count": 4, "min": 6, "channel_id": 555}),
    ("user", {"game_id": 1, "type": "absence_warning", "round": 2, "phase": "day", "seat": 3, "in_row": 2, "total": 3, "left": 1, "action": "remove"}),
    ("user", {"game_id": 1, "type": "absence_warning", "round": 2, "phase": "morning", "seat": 3, "in_row": 1, "total": 1, "left": None, "action": "notify"}),
    ("user", {"game_id": 1, "type": "absence_moderator", "game": 1, "seat": 3, "name": "Player3", "in_row": 3, "total": 4, "action": "ai"}),
    ("user", {"game_id": 1, "type": "offers_exhausted", "game": 1, "seat": 3, "name": "Player3", "removed": True}),
    ("user", {"game_id": 1, "type": "seat_offer", "offer": 7, "game": 1, "seat": 3, "expires": WHEN, "channel": 555}),
    ("gallery", {"game_id": 1, "type": "gallery_truth", "step": "start", "round": 0, "phase": "start", "events": [], "rolls": [],
                 "deal": [{"seat": 1, "class_id": "barbarian", "faction": "chaotic"}, {"seat": 2, "class_id": "monk", "faction": "lawful"}]}),
    ("gallery", {"game_id": 1, "type": "gallery_truth", "step": "advance", "round": 1, "phase": "dusk", "events": [LEFT, GRAIL_WON],
                 "rolls": [{"who": 1, "why": "attack", "die": 100, "result": 42}], "late": True}),
    ("gallery", {"game_id": 1, "type": "predictions_open", "round": 2}),
    ("gallery", {"game_id": 1, "type": "prediction_scores", "winners": ["lawful", "neutral"],
                 "scores": [{"user": 700, "rounds": 1, "brier": 0.5}, {"user": 701, "rounds": 3, "brier": 1.1667}]}),
    ("channel", {"type": "season_ended", "number": 2, "name": "Spring", "started_at": WHEN, "ended_at": WHEN, "games": 4, "players": 9,
                 "top": [{"name": "Ann", "rating": 3.5, "games": 4, "wins": 3}],
                 "awards": [{"key": "points", "names": ["Ann", None], "value": 40, "out_of": 4},
                            {"key": "record_lawful", "names": ["Bo"], "value": 0.75, "out_of": 4}]}),
]  # fmt: skip


def outgoing(recipient: str, payload: dict[str, Any], locale: str = "en-US") -> OutgoingMessage:
    return OutgoingMessage("k", payload.get("game_id"), recipient, 1, locale, payload, 0, datetime.now(UTC))


def stored(payload: dict[str, Any]) -> dict[str, Any]:
    """The row's JSON as the codec writes it (the outbox adds ``game_id``)."""
    return {k: v for k, v in payload.items() if k != "game_id"}


def text_of(recipient: str, payload: dict[str, Any], locale: str) -> str:
    rendered = render_outgoing(outgoing(recipient, payload, locale), None)
    parts = [rendered.content or ""]
    for e in rendered.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in e.fields]
    return "\n".join(parts)


def check_decodes_and_renders(recipient: str, payload: dict[str, Any], locale: str) -> None:
    message = decode(payload)
    assert type(message) is KINDS[payload["type"]] and payload["type"] == message.KIND
    again = encode(message)
    assert again == stored(payload) and list(again) == list(stored(payload)), payload["type"]  # key order too
    text = text_of(recipient, payload, locale)
    assert text.strip() and "{" not in text, (payload["type"], text)
    if payload["type"] != "lobby":  # (worded from the game as it stands: none here)
        assert t("event.Unknown", locale, kind=payload["type"]) not in text


def test_every_kind_has_a_class_a_renderer_and_a_row_here():
    # The renderers are the core's (bot.render.outgoing) and the features' looks, which
    # the bot imports by finding them (bot.discord.features): found here the same way.
    found = discover()
    assert {"bot.features.endings.look", "bot.features.lobby.look"} <= set(found.modules)
    assert RENDERERS.classes() == set(KINDS.values())
    assert {p["type"] for _, p in WRITTEN} == set(KINDS)
    assert all(issubclass(cls, Message) and kind == cls.KIND for kind, cls in KINDS.items())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("recipient", "payload"), WRITTEN, ids=[f"{i}-{p['type']}" for i, (_, p) in enumerate(WRITTEN)])
def test_a_row_as_the_writers_stored_it(recipient: str, payload: dict[str, Any], locale: str) -> None:
    check_decodes_and_renders(recipient, payload, locale)


@pytest.mark.parametrize("path", OLD_DBS, ids=[p.stem for p in OLD_DBS])
def test_every_row_an_earlier_release_stored(path: Path) -> None:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = [(kind, json.loads(raw)) for kind, raw in conn.execute("SELECT recipient_kind, payload FROM outbox ORDER BY id")]
    assert len(rows) > 50 and {p["type"] for _, p in rows} >= {"events", "sheet", "game_started", "phase_started", "seed_revealed"}
    for recipient, payload in rows:
        check_decodes_and_renders(recipient, payload, "en-US")


def test_a_post_stored_before_steps_were_named_is_an_advance():
    old = {"game_id": 1, "type": "events", "round": 1, "phase": "day", "events": [GRAIL_WON]}
    news = decode(old)
    assert isinstance(news, StepEvents) and news.step == "advance" and news.events[0].kind == "GrailWon"
    assert text_of("user", old, "en-US") == text_of("user", {**old, "step": "advance"}, "en-US")


def test_a_row_of_a_kind_no_class_knows_is_refused_and_shown_as_unknown():
    with pytest.raises(UnknownMessageError):
        decode({"type": "from_a_newer_release", "round": 1})
    text = text_of("channel", {"game_id": 1, "type": "from_a_newer_release"}, "en-US")
    assert t("event.Unknown", "en-US", kind="from_a_newer_release") in text


def test_a_stored_row_missing_a_field_its_class_requires_is_malformed():
    with pytest.raises(messages.MalformedMessageError):
        decode({"type": "sheet"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Stray(Message):
    """A message class nobody declared as a kind."""

    note: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PausedTwice(GamePaused):
    """A subclass of a kind, not a kind itself."""


async def test_a_message_of_no_kind_is_refused_when_written(db: Database):
    game_id = await lobby(db)
    async with table.of(db, game_id, writing=True) as t:
        s = t.session
        before = (await s.execute(select(func.count()).select_from(OutboxMessage))).scalar_one()
        mail = await t.mail(seq=None, round_no=0, phase="lobby")
        for stray in (Stray(note="hello"), PausedTwice(round=1, phase="day"), {"type": "lobby"}):
            with pytest.raises(UnknownMessageError):
                mail.public(stray)  # type: ignore[arg-type]  # (what mypy refuses, refused when run)
            with pytest.raises(UnknownMessageError):
                mail.private(1, stray)  # type: ignore[arg-type]
        assert mail.count == 0
        await s.flush()
        assert (await s.execute(select(func.count()).select_from(OutboxMessage))).scalar_one() == before
        mail.public(GamePaused(round=1, phase="day"))  # a declared kind goes in
        assert mail.count == 1


def test_the_first_rounds_prediction_menu_explains_them_and_the_later_ones_remind() -> None:
    first = text_of("gallery", {"game_id": 1, "type": "predictions_open", "round": 1}, "en-US")
    later = text_of("gallery", {"game_id": 1, "type": "predictions_open", "round": 3}, "zh-CN")
    assert t("predictions.open_body", "en-US") in first and "Brier" in first
    assert t("predictions.open_again", "zh-CN") in later and "Brier" not in later
