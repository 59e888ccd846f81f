"""Lists that can outgrow one embed field (1,024 characters): 15 players with Discord's
longest names, escaped (a name of 32 asterisks is 64 characters once escaped). Every line
is shown, in as many fields as needed, and no message passes Discord's limits."""

from __future__ import annotations

import pytest

import engine
import engine.view
from bot.core.types import GameInfo, GameSettings, PlayerView, SeatInfo
from bot.features.lobby.look import lobby_embed
from bot.features.me.cog import me_embeds
from bot.features.moderation.look import status_embed
from bot.i18n import t, terms
from bot.render import words
from bot.render.fields import FIELD_LIMIT, chunks
from engine.classes import class_spec

NAMES = [f"{i:02d}" + "*" * 30 for i in range(1, 16)]  # 32 characters, 62 escaped


def info(phase: str | None = "dusk", status: str = "running", seated: bool = True) -> GameInfo:
    players = tuple(SeatInfo(i if seated else None, 10**17 + i, name) for i, name in enumerate(NAMES, start=1))
    return GameInfo(
        id=1, guild_id=1, channel_id=1, moderator_id=1, status=status, round=9 if seated else 0, phase=phase,
        deadline=None, paused_remaining=None, version=1, seed_sha256="0" * 64, settings=GameSettings(), players=players,
    )  # fmt: skip


def values(embed) -> str:
    return "\n".join(f.value for f in embed.fields)


def within_limits(embed) -> None:
    assert all(len(f.value) <= FIELD_LIMIT and len(f.name) <= 256 for f in embed.fields)
    assert len(embed.fields) <= 25 and len(embed) <= 6000


def test_chunks_keep_lines_whole_and_fields_short() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(40)]
    out = chunks(lines)
    assert len(out) > 1 and all(len(v) <= FIELD_LIMIT for v in out)
    assert "\n".join(out).splitlines() == lines


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_game_status_lists_every_living_seat(locale: str) -> None:
    embed = status_embed(info(), {}, set(), locale)
    within_limits(embed)
    shown = values(embed)
    for seat, name in enumerate(NAMES, start=1):
        assert f"#{seat} {words.player_name(name)} — " in shown


def test_the_lobby_lists_every_player() -> None:
    embed = lobby_embed(info(phase=None, status="lobby", seated=False), "en-US")
    within_limits(embed)
    for name in NAMES:
        assert words.player_name(name) in values(embed)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_me_lists_every_confirmed_fact(locale: str) -> None:
    state = engine.new_game(NAMES, "long-lists")
    confirmed = [
        {"target": p.seat, "what": "trait", "value": trait.value}
        for p in state.players
        if p.seat != 1
        for trait in class_spec(p.class_id).traits
    ]
    state.player(1).memory["confirmed"] = confirmed
    pv = PlayerView(game=info(), seat=1, sheet=engine.view.sheet(state, 1), sent={})
    embed, sheet = me_embeds(pv, locale)  # the live part (what I know among it), then the sheet
    within_limits(embed)
    within_limits(sheet)
    assert len(embed) + len(sheet) <= 6000  # one message's embeds together
    shown = values(embed).splitlines()
    for g in confirmed:
        name = words.seat_label(g["target"], {g["target"]: words.player_name(NAMES[g["target"] - 1])})
        assert t("event.ConfirmTrait", locale, name=name, value=terms.trait(g["value"], locale)) in shown


@pytest.mark.parametrize(("locale", "lobby", "cancelled"), [("en-US", "Game #1 — the lobby", "Cancelled: nobody wins."), ("zh-CN", "第1局 — 大厅", "已取消：无人获胜。")])
def test_game_status_of_a_game_never_dealt_names_no_round(locale: str, lobby: str, cancelled: str) -> None:
    """A lobby has no round to name ("round 0" read like a bug); a lobby cancelled by its
    moderator, or by its channel's deletion, is "cancelled", not "ended"."""
    assert status_embed(info(phase=None, status="lobby", seated=False), {}, set(), locale).title == lobby
    gone = status_embed(info(phase=None, status="cancelled", seated=False), {}, set(), locale)
    assert gone.title == lobby and gone.description == cancelled
