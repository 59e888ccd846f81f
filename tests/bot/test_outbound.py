"""Every outbox message of a whole game renders in both languages, and the public posts
say only what the rules allow."""

from __future__ import annotations

import dataclasses

from bot.core.advance import advance_phase
from bot.core.outbox import claim_due_messages, mark_delivered
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import end_game, remove_player
from bot.i18n import LOCALES, t, terms
from bot.render.outgoing import render_outgoing
from engine.classes import catalogue
from tests.service.helpers import play_to_end, send_all, started


def text_of(rendered) -> str:
    parts = [rendered.content or ""]
    for e in rendered.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in e.fields]
    return "\n".join(parts)


async def play(db: Database):
    game_id = await started(db, 6, seed="render-seed-01")
    await play_to_end(db, game_id)
    messages = []
    for _ in range(50):
        batch = await claim_due_messages(db, limit=1000)
        if not batch:
            break
        for m in batch:
            await mark_delivered(db, m.key)
        messages += batch
    return await get_game(db, game_id), messages


async def test_a_whole_games_messages(db: Database, clock):
    """One game played to the end (slow to build, so every check is made on it)."""
    game = await play(db)
    for locale in LOCALES:
        check_every_message_renders_without_gaps(game, locale)
    check_public_posts_reveal_no_class_no_number_and_no_seed_before_the_end(game)
    check_private_news_goes_only_to_its_seat(game)
    check_private_news_is_titled_by_the_phase_that_closed(game)


def check_every_message_renders_without_gaps(whole_game, locale):
    info, messages = whole_game
    kinds = {m.payload["type"] for m in messages}
    assert {"game_started", "sheet", "phase_started", "events", "seed_revealed"} <= kinds
    for m in messages:
        rendered = render_outgoing(dataclasses.replace(m, locale=locale), info)
        text = text_of(rendered)
        assert text.strip(), m.payload["type"]
        assert "{" not in text.replace("{}", ""), (m.payload["type"], text)
        assert all(len(e.description or "") <= 4096 and len(e.fields) <= 25 for e in rendered.embeds)
        assert len(rendered.embeds) <= 10


def check_public_posts_reveal_no_class_no_number_and_no_seed_before_the_end(whole_game):
    info, messages = whole_game
    class_names = {terms.class_name(c, loc) for c in catalogue() for loc in LOCALES}
    for m in messages:
        if m.recipient_kind != "channel":
            continue
        text = text_of(render_outgoing(m, info))
        events = m.payload.get("events", [])
        ending = m.payload["type"] == "seed_revealed" or any(e["kind"] == "GameEnded" for e in events)
        assert all(e["audience"] == "public" for e in events)
        if not ending:
            assert not any(name in text for name in class_names), text
            assert "render-seed-01" not in text
    last = render_outgoing(next(m for m in messages if any(e["kind"] == "GameEnded" for e in m.payload.get("events", []))), info)
    assert last.attachments and last.attachments[0][0] == "scoreboard.png" and last.attachments[0][1][:4] == b"\x89PNG"
    assert any(e.image.url == "attachment://scoreboard.png" for e in last.embeds)
    seed = render_outgoing(next(m for m in messages if m.payload["type"] == "seed_revealed"), info)
    assert "render-seed-01" in text_of(seed)


def check_private_news_goes_only_to_its_seat(whole_game):
    info, messages = whole_game
    holder = {p.seat: p.user_id for p in info.players}
    for m in messages:
        if m.recipient_kind == "user" and m.payload["type"] == "events":
            assert holder[m.payload["seat"]] == m.recipient_id
            assert all(e["audience"] == "private" and e["seat"] == m.payload["seat"] for e in m.payload["events"])


def check_private_news_is_titled_by_the_phase_that_closed(whole_game):
    """The grail won reads as Day news, a night's hits as Night news, the vote's damage as
    Morning news; what a moderator's step sends has the plain title."""
    info, messages = whole_game
    news = [m for m in messages if m.recipient_kind == "user" and m.payload["type"] == "events"]
    assert any(e["kind"] == "GrailWon" for m in news if m.payload["phase"] == "day" for e in m.payload["events"])
    assert {"day", "dusk"} <= {m.payload["phase"] for m in news}
    by_phase = {"day": "post.private_title_day", "dusk": "post.private_title_dusk", "morning": "post.private_title_morning"}
    for locale in LOCALES:
        for m in news:
            key = by_phase[m.payload["phase"]] if m.payload.get("step", "advance") == "advance" else "post.private_title"
            title = render_outgoing(dataclasses.replace(m, locale=locale), info).embeds[0].title
            assert title == t(key, locale, round=m.payload["round"])


async def test_events_posts_are_titled_by_their_step(db: Database):
    """The outbox names the step of every events post; the channel post says whether a
    phase closed, a moderator removed a player or ended the game."""
    game_id = await started(db, 7, seed="title-seed-01")
    await remove_player(db, game_id, 7)
    for _ in range(3):  # Day, Dusk and Morning of round 1 (the vote is public)
        await send_all(db, game_id)
        await advance_phase(db, game_id)
    await end_game(db, game_id)
    info = await get_game(db, game_id)
    posts = [m for m in await claim_due_messages(db, limit=1000) if m.payload["type"] == "events" and m.recipient_kind == "channel"]
    steps = [m.payload["step"] for m in posts]
    assert steps[0] == "remove" and steps[-1] == "end" and set(steps[1:-1]) == {"advance"}
    assert any(m.payload["phase"] == "morning" for m in posts[1:-1])
    advance_titles = {"day": ("reply.post.day_title", {"round": 1}), "dusk": ("post.dawn_title", {"round": 1}), "morning": ("post.announcement_title", {"round": 1})}
    for locale in LOCALES:
        titles = [[e.title for e in render_outgoing(dataclasses.replace(m, locale=locale), info).embeds] for m in posts]
        assert titles[0][0] == t("reply.post.removed_title", locale)
        for m, ts in zip(posts[1:-1], titles[1:-1], strict=True):
            key, params = advance_titles[m.payload["phase"]]
            assert ts[0] == t(key, locale, **params)
        end = render_outgoing(dataclasses.replace(posts[-1], locale=locale), info)
        assert titles[-1][0] == t("reply.post.ended_title", locale) and end.embeds[0].description == t("reply.post.ended_body", locale)
        assert end.attachments and end.attachments[0][0] == "scoreboard.png"
        assert t("end_reason.stopped", locale) in (end.embeds[1].description or "")
    # A post written before the outbox named its step reads as an advance.
    legacy = dataclasses.replace(posts[-2], payload={k: v for k, v in posts[-2].payload.items() if k != "step"})
    assert render_outgoing(legacy, info).embeds[0].title == render_outgoing(posts[-2], info).embeds[0].title


async def test_a_night_without_departures_gets_a_quiet_dawn_post(db: Database):
    """Nobody attacks: the dawn still says so, as a game master would ("a quiet night")."""
    game_id = await started(db, 6, seed="quiet-night-01")
    await advance_phase(db, game_id)  # Day: nobody sent a number
    await advance_phase(db, game_id)  # Dusk: no orders, so the night is quiet
    info = await get_game(db, game_id)
    posts = [m for m in await claim_due_messages(db, limit=1000) if m.payload["type"] == "events" and m.recipient_kind == "channel"]
    [dawn] = [m for m in posts if m.payload["phase"] == "dusk"]
    assert dawn.payload["events"] == []
    for locale in LOCALES:
        text = text_of(render_outgoing(dataclasses.replace(dawn, locale=locale), info))
        assert t("post.dawn_title", locale, round=1) in text and t("post.dawn_quiet", locale) in text
