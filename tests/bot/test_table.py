"""/table and the Table button on a phase post, over the local Discord: every seat named
as the posts name it, a departure shown only once the table has been told, the phase,
its deadline and how many have sent, in the caller's language; never a secret."""

from __future__ import annotations

from bot.db import repositories as repo
from bot.features.lobby.games import latest_game_in_channel
from bot.i18n import LOCALES, t, terms
from engine.classes import catalogue
from engine.events import public
from tests.bot.conftest import Table, reply_text, started_game

FACTIONS = ("lawful", "neutral", "chaotic")


def secrets() -> set[str]:
    """Every class and faction name, in every language."""
    return {terms.class_name(c, loc) for c in catalogue() for loc in LOCALES} | {terms.faction(f, loc) for f in FACTIONS for loc in LOCALES}


def assert_no_secret(text: str) -> None:
    leaked = sorted(s for s in secrets() if s in text)
    assert leaked == [], (leaked, text)


async def depart_unannounced(table: Table, game_id: int, seat: int) -> None:
    """``seat`` died in the night just gone, its news held for the Morning (house rule
    ``departures: morning``): dead in the state, still living to the table."""
    async with table.db.transaction() as s:
        game = await repo.get_game(s, game_id)
        assert game is not None
        state = dict(game.state or {})
        state["players"] = [dict(p, alive=p["seat"] != seat and p["alive"]) for p in state["players"]]
        state["held_news"] = [public("PlayerLeft", seat=seat, name=state["players"][seat - 1]["name"], round=game.round).to_dict()]
        game.state = state


async def seats(table: Table) -> dict[int, str]:
    game = await latest_game_in_channel(table.db, table.channel.id)
    assert game is not None
    return {p.seat: p.name for p in game.players if p.seat is not None}


async def test_the_table_lists_every_seat_in_the_callers_language(table: Table):
    await started_game(table, 6)
    alice, bob = table.players[0], table.players[1]  # zh-CN, en-US
    shown = reply_text(await table.run(bob, "table"))
    for seat, name in (await seats(table)).items():
        assert f"#{seat} {name} — {t('table.alive', 'en-US')}" in shown, shown
    assert t("table.seats", "en-US", living=6, count=6) in shown
    assert "<t:" in shown and ":R>" in shown  # the deadline as a Discord timestamp
    assert t("table.sent", "en-US", sent=0, living=6, command="`/grail`") in shown
    await table.run(bob, "grail", {"number": 40})
    assert t("table.sent", "en-US", sent=1, living=6, command="`/grail`") in reply_text(await table.run(bob, "table"))
    # In a DM, the caller's own game, in their language.
    zh = reply_text(await table.run(alice, "table", dm=True))
    assert f"#1 {(await seats(table))[1]} — {t('table.alive', 'zh-CN')}" in zh and t("table.seats", "zh-CN", living=6, count=6) in zh, zh
    assert_no_secret(shown + zh)


async def test_the_button_on_the_phase_post_answers_whoever_can_see_the_channel(table: Table):
    game_id = await started_game(table, 6)
    post = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"wh:table:{game_id}" in m.custom_ids())
    carol = table.players[2]
    shown = reply_text(await (await table.emu.click(carol, post, f"wh:table:{game_id}")).wait(10))
    assert all(f"#{seat} {name}" in shown for seat, name in (await seats(table)).items()), shown
    assert t("table.title", "en-US", game=game_id, phase=t("phase.day", "en-US"), round=1) in shown
    # grace sits at no table but is a member who sees the channel: public facts are hers too.
    grace = table.players[6]
    assert f"#1 {(await seats(table))[1]}" in reply_text(await (await table.emu.click(grace, post, f"wh:table:{game_id}")).wait(10))


async def test_a_death_held_for_the_morning_shows_only_once_announced(table: Table):
    game_id = await started_game(table, 6, departures="morning")
    await table.run(table.mod, "phase advance")  # Day 1 closes
    await table.run(table.mod, "phase advance")  # Dusk 1 closes: the night
    await table.delivered()
    await depart_unannounced(table, game_id, seat=3)
    bob, carol = table.players[1], (await seats(table))[3]
    before = reply_text(await table.run(bob, "table"))
    assert f"#3 {carol} — {t('table.alive', 'en-US')}" in before, before
    assert t("table.departed", "en-US") not in before
    assert t("table.sent", "en-US", sent=0, living=6, command="`/vote`") in before  # the reminder's count: six
    assert_no_secret(before)
    await table.run(table.mod, "phase advance")  # Morning 1 closes: the announcement
    await table.delivered()
    told = "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    assert f"#3 {carol}" in told and t("event.PlayerLeft", "en-US", player=f"#3 {carol}") in told
    after = reply_text(await table.run(bob, "table"))
    assert f"#3 {carol} — {t('table.departed', 'en-US')}" in after, after
    assert t("table.seats", "en-US", living=5, count=6) in after
    assert_no_secret(after)


async def test_me_shows_the_live_part_first_then_the_sheet_in_a_fixed_order(table: Table):
    await started_game(table, 6)
    bob = table.players[1]
    await table.run(bob, "grail", {"number": 40})
    result = await table.run(bob, "me")
    embeds = [e for m in [result.message, *result.followups] if m is not None for e in m.embeds]
    live, sheet = embeds[0], embeds[1]
    names = [f.get("name") for f in live.get("fields") or []]
    want = [t("reply.me.sent", "en-US"), t("reply.me.grail", "en-US"), t("sheet.states", "en-US")]
    assert [n for n in names if n in want] == want, names  # the same order with or without states
    assert "40" in (live["fields"][0]["value"]) and "<t:" in live["fields"][0]["value"]
    assert sheet.get("title") and t("sheet.states", "en-US") not in [f.get("name") for f in sheet.get("fields") or []]
