"""The one error handler: each refusal becomes an ephemeral reply in the reader's
language; anything else is logged with its context and answered with an apology."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.access_errors import NotModeratorError
from bot.core.errors import (
    MaxBelowJoinedError,
    NoActiveGameError,
    NotEnoughPlayersError,
    PhaseClosedError,
    RuleRefusedError,
    SettingFixedError,
)
from bot.discord.errors import ReplyError, error_text, handle_error
from engine.errors import DeadTargetError, OutOfRangeError, WrongPhaseError


class Response:
    def __init__(self, done: bool) -> None:
        self.done = done
        self.sent: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)


class Followup:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)


def interaction(locale: str, done: bool = False) -> Any:
    return SimpleNamespace(
        id=1, type=discord.InteractionType.application_command, locale=discord.Locale(locale),
        command=SimpleNamespace(qualified_name="act attack"), data={}, user=SimpleNamespace(id=42),
        guild_id=7, channel_id=8, response=Response(done), followup=Followup(), extras={},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("error", "en", "zh"),
    [
        (WrongPhaseError(expected="phase.morning", phase="phase.day"), "only be sent during Morning", "只能在清晨"),
        (OutOfRangeError(what="what.grail_number", low=1, high=100, value=101), "from 1 to 100", "1到100"),
        (RuleRefusedError(DeadTargetError(target=3)), "Seat 3 has left", "3号已经出局"),
        (PhaseClosedError(round=2, phase="phase.dusk"), "Dusk (identifications and orders) of round 2", "第2轮的黄昏"),
        (NoActiveGameError(), "not in any game", "没有参加任何游戏"),
        (NotEnoughPlayersError(min=6, count=1), "At least 6 players are needed; 1 has joined.", "目前有1人加入"),
        (NotEnoughPlayersError(min=6, count=4), "At least 6 players are needed; 4 have joined.", "目前有4人加入"),
        (NotModeratorError(), "Only a moderator", "只有管理员"),
        (ReplyError("reply.error.player_unknown", text="zed"), "No player matches “zed”", "没有玩家与“zed”匹配"),
        # A list parameter is listed in the reader's language.
        (ReplyError("reply.error.player_ambiguous", text="a", candidates=["#1 ann", "#2 amy"]), "#1 ann, #2 amy", "#1 ann、#2 amy"),
        # A setting is named as the option the moderator typed, in their language.
        (SettingFixedError(field="vote_tie_rule"), "vote_tie is fixed once the game has started", "不能再修改“平票”"),
        (MaxBelowJoinedError(field="max_players", joined=8), "8 players have already joined", "已有8名玩家加入"),
        (app_commands.BotMissingPermissions(["embed_links"]), "Embed Links", "嵌入链接"),
        (app_commands.CommandInvokeError(SimpleNamespace(qualified_name="x", name="x"), ReplyError("reply.error.no_game_here")), "no game in this channel", "本频道没有游戏"),  # type: ignore[arg-type]
    ],
)
def test_every_refusal_reads_well_in_both_languages(error, en, zh):
    assert en in error_text(error, "en-US")
    assert zh in error_text(error, "zh-CN")
    assert "{" not in error_text(error, "zh-CN") and "phase." not in error_text(error, "en-GB")


def test_a_refused_night_says_how_to_start_over():
    from engine.errors import ActionEconomyError

    text = error_text(RuleRefusedError(ActionEconomyError(reason="reason.one_standard")), "zh-CN")
    assert "行动过多" in text and "清除" in text
    assert "`/我的指令 清除: 我的夜间指令`" in text and "“清除指令”" in text
    assert "`/orders clear: my night orders`" in error_text(ActionEconomyError(reason="reason.two_actions"), "en-US")
    from engine.errors import IdentificationError

    assert "`/orders clear: my identifications`" in error_text(IdentificationError(reason="reason.identify_rule"), "en-US")


def test_a_wounded_player_refused_orders_learns_how_to_pass():
    from engine.errors import WoundedError

    en = error_text(RuleRefusedError(WoundedError()), "en-US")
    assert "You are wounded" in en and "`/orders clear: nothing tonight`" in en
    assert "今夜不行动" in error_text(WoundedError(), "zh-CN")


def test_a_toggle_that_forbids_attacking_says_how_to_keep_either():
    from engine.errors import SkillUnavailableError

    refused = RuleRefusedError(SkillUnavailableError(skill="divine_guard", reason="reason.no_attack_tonight"))
    en = error_text(refused, "en-US")
    assert "You cannot use Divine Guard now: it forbids attacking tonight, and your orders include an attack." in en
    assert "leave Divine Guard off" in en and "`/act skill`" in en and "`/orders clear: my night orders`" in en
    zh = error_text(refused, "zh-CN")
    assert "神圣守护" in zh and "`/行动 技能`" in zh and "`/我的指令 清除: 我的夜间指令`" in zh and "{" not in zh


def test_bugs_are_not_refusals():
    assert error_text(RuntimeError("boom"), "en-US") is None
    assert error_text(KeyError("x"), "zh-CN") is None
    # A database error carries its SQL parameters as ``params`` (a tuple), which is not a
    # refusal's parameters: still a bug, not a crash of the error handler.
    from sqlalchemy.exc import DBAPIError

    db_error = DBAPIError("SELECT 1 WHERE id = $1", (2**40,), ValueError("out of int32 range"))
    assert error_text(app_commands.CommandInvokeError(SimpleNamespace(qualified_name="x", name="x"), db_error), "en-US") is None  # type: ignore[arg-type]


async def test_a_refusal_is_an_ephemeral_reply_in_the_callers_language():
    i = interaction("zh-CN")
    await handle_error(i, NoActiveGameError())
    (sent,) = i.response.sent
    assert sent["ephemeral"] is True and "没有参加任何游戏" in sent["embed"].description


async def test_after_a_defer_the_reply_is_a_followup():
    i = interaction("en-US", done=True)
    await handle_error(i, NotModeratorError())
    assert i.response.sent == [] and i.followup.sent[0]["ephemeral"] is True


async def test_a_bug_is_logged_with_context_and_the_user_gets_an_apology(caplog):
    i = interaction("en-US")
    with caplog.at_level(logging.ERROR, logger="wolfhowl.discord.errors"):
        await handle_error(i, app_commands.CommandInvokeError(SimpleNamespace(qualified_name="x", name="x"), ZeroDivisionError("oops")))  # type: ignore[arg-type]
    text = i.response.sent[0]["embed"].description
    assert "Sorry" in text and "oops" not in text and "Traceback" not in text
    record = caplog.records[-1]
    assert "act attack" in record.getMessage() and "user=42" in record.getMessage()
    assert record.exc_info and record.exc_info[0] is ZeroDivisionError
