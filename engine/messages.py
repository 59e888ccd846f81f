"""Bilingual texts of the engine's own errors (message key -> en-US, zh-CN).

The bot's catalogues hold everything else; these live here because the engine raises them
and its tests check both languages render."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from engine.zh_tw import traditional

MESSAGES: dict[str, dict[str, str]] = {
    "error.rule": {"en-US": "The rules do not allow that.", "zh-CN": "规则不允许这样做。"},
    "error.wrong_phase": {
        "en-US": "That can only be sent during {expected}; it is now {phase}.",
        "zh-CN": "只能在{expected}提交；现在是{phase}。",
    },
    "error.game_over": {"en-US": "The game is over.", "zh-CN": "游戏已经结束。"},
    "error.unknown_rules_version": {
        "en-US": "This game was dealt under rules version {version}, which this release does not know (it knows 1 to {newest}): play it with the release that dealt it, or a newer one.",
        "zh-CN": "本局游戏按规则版本{version}发牌，而当前版本的机器人不认识它（只认识1到{newest}）：请用发牌时的版本或更新的版本继续。",
    },
    "error.not_in_game": {
        "en-US": "Seat {seat} is not in this game.",
        "zh-CN": "{seat}号座位不在本局游戏中。",
    },
    "error.dead": {
        "en-US": "You have left the game (dead) and can no longer take part.",
        "zh-CN": "你已经出局（死亡），不能再参与。",
    },
    "error.wounded": {
        "en-US": "You are wounded (HP 0): you cannot act at night, but you may still send a grail number, identifications and a vote.",
        "zh-CN": "你处于受伤状态（生命值0）：夜里不能行动，但仍可提交圣杯数字、指认和投票。",
    },
    "error.bad_target": {
        "en-US": "{target} is not a valid target here.",
        "zh-CN": "{target}不是合法的目标。",
    },
    "error.self_target": {
        "en-US": "You cannot target or vote for yourself.",
        "zh-CN": "你不能以自己为目标或给自己投票。",
    },
    "error.dead_target": {
        "en-US": "Seat {target} has left the game and cannot be targeted.",
        "zh-CN": "{target}号已经出局，不能作为目标。",
    },
    "error.out_of_range": {
        "en-US": "{what} must be a whole number from {low} to {high}; you sent {value}.",
        "zh-CN": "{what}必须是{low}到{high}之间的整数；你提交的是{value}。",
    },
    "error.unknown_skill": {
        "en-US": "Your class has no skill called “{skill}”.",
        "zh-CN": "你的职业没有名为“{skill}”的技能。",
    },
    "error.skill_unavailable": {
        "en-US": "You cannot use {skill} now: {reason}.",
        "zh-CN": "你现在不能使用{skill}：{reason}。",
    },
    "error.actions": {
        "en-US": "Too many actions: {reason}.",
        "zh-CN": "行动过多：{reason}。",
    },
    "error.identify": {
        "en-US": "Your identification rule does not allow that: {reason}.",
        "zh-CN": "你的指认规则不允许这样：{reason}。",
    },
    "error.malformed": {
        "en-US": "That submission is not understood: {reason}.",
        "zh-CN": "无法理解该提交：{reason}。",
    },
    "error.order_shape": {
        "en-US": "That order does not fit: {reason}.",
        "zh-CN": "该指令不符合要求：{reason}。",
    },
    "error.lineup": {
        "en-US": "That line-up cannot be used: {reason}.",
        "zh-CN": "无法使用这个阵容：{reason}。",
    },
    "phase.day": {"en-US": "Day (grail numbers)", "zh-CN": "白天（分配圣杯）"},
    "phase.dusk": {"en-US": "Dusk (identifications and orders)", "zh-CN": "黄昏（指认与行动）"},
    "phase.morning": {"en-US": "Morning (the vote)", "zh-CN": "清晨（公决投票）"},
    "phase.over": {"en-US": "the end of the game", "zh-CN": "游戏结束"},
    "what.grail_number": {"en-US": "The grail number", "zh-CN": "圣杯数字"},
    "what.amount": {"en-US": "The amount", "zh-CN": "点数"},
    "what.players": {"en-US": "The number of players", "zh-CN": "玩家人数"},
    # An order that is no class's skill.
    "skill.release": {"en-US": "Release", "zh-CN": "松开"},
    "reason.unknown_kind": {"en-US": "unknown kind of submission", "zh-CN": "未知的提交类型"},
    "reason.guess_kind": {"en-US": "a guess names a trait, a class or a faction", "zh-CN": "指认只能针对特质、职业或阵营"},
    "reason.guess_value": {"en-US": "no such trait, class or faction", "zh-CN": "没有这种特质、职业或阵营"},
    "reason.identify_rule": {"en-US": "more names, or other kinds of guess, than your class may send each night", "zh-CN": "超出了你的职业每夜可指认的人数或类型"},
    "reason.not_toggle": {"en-US": "it is not a toggle", "zh-CN": "它不是抉择技能"},
    "reason.not_active": {"en-US": "it works by itself (passive or toggle)", "zh-CN": "它是被动或抉择技能，会自行生效"},
    "reason.used_once": {"en-US": "it can be used once per game and you have used it", "zh-CN": "它是全局技能，你已经用过了"},
    "reason.repeated_action": {"en-US": "the same action twice in one night", "zh-CN": "一夜内重复同一个行动"},
    "reason.not_grappling": {"en-US": "you are not holding anyone, or it is not your first action", "zh-CN": "你没有擒抱任何人，或这不是你的第一个行动"},
    "reason.one_target": {"en-US": "an attack names exactly one target", "zh-CN": "攻击只能指定一个目标"},
    "reason.target_count": {"en-US": "this skill takes {low} to {high} targets", "zh-CN": "该技能需要指定{low}到{high}个目标"},
    "reason.target_exact": {"en-US": "this skill takes exactly {count} targets", "zh-CN": "该技能需要指定{count}个目标"},
    "reason.single_target": {"en-US": "this skill takes exactly one target", "zh-CN": "该技能需要指定1个目标"},
    "reason.distinct_targets": {"en-US": "name each target once", "zh-CN": "每个目标只能指定一次"},
    "reason.no_amount": {"en-US": "this skill takes no amount", "zh-CN": "该技能不需要点数"},
    "reason.release_alone": {"en-US": "Release takes no target and no amount", "zh-CN": "松开不需要指定目标或点数"},
    "reason.amount_needed": {"en-US": "this skill needs an amount of points from {low} to {high}", "zh-CN": "该技能需要填写{low}到{high}之间的点数"},
    "reason.one_standard": {"en-US": "you have one standard action a night (an attack or most active skills)", "zh-CN": "每夜只有一个标准动作（攻击或大部分主动技能）"},
    "reason.two_actions": {"en-US": "at most one standard and one free action a night (the standard one may serve as a second free one)", "zh-CN": "每夜最多一个标准动作和一个自由动作（标准动作可当作第二个自由动作）"},
    "reason.no_grail": {"en-US": "you need to have held the grail tonight", "zh-CN": "你需要在本夜拥有过圣杯"},
    "reason.not_ready": {"en-US": "its condition is not met", "zh-CN": "条件尚未满足"},
    "reason.no_attack_tonight": {"en-US": "it forbids attacking tonight, and your orders include an attack", "zh-CN": "开启它的夜里不能攻击，而你的指令中有攻击"},
    "reason.lineup_syntax": {
        "en-US": "write the classes of the three factions separated by “/”, Lawful first, e.g. “warrior,monk/barbarian,druid/sorcerer,bard”, or name a preset",
        "zh-CN": "请用“/”分隔三个阵营的职业，守序在前，例如“战士,武僧/野蛮人,德鲁伊/术士,吟游诗人”，或者填写一个预设名",
    },
    "reason.lineup_faction": {"en-US": "there is no faction called “{name}”", "zh-CN": "没有名为“{name}”的阵营"},
    "reason.lineup_unknown": {"en-US": "there is no class called “{name}”", "zh-CN": "没有名为“{name}”的职业"},
    "reason.lineup_class": {"en-US": "{class_name} is not in the {faction} row of the table", "zh-CN": "{class_name}不在{faction}阵营的职业表中"},
    "reason.lineup_twice": {"en-US": "{faction} names {class_name} twice; a row deals each class once", "zh-CN": "{faction}阵营两次列出{class_name}；每个职业在一个阵营中只发一次"},
    "reason.lineup_empty": {"en-US": "every faction needs at least one player, and {faction} has none", "zh-CN": "每个阵营至少要有一名玩家，而{faction}阵营没有"},
    "reason.lineup_total": {"en-US": "it seats {count} players; a table has {low} to {high}", "zh-CN": "它有{count}名玩家；一桌须为{low}到{high}人"},
    "reason.lineup_majority": {"en-US": "{faction} would outnumber the other two factions together, which ends the game at once", "zh-CN": "{faction}阵营人数会多于其他两个阵营之和，游戏会立刻结束"},
    "reason.lineup_size": {"en-US": "it seats {count} players and the table has {players}", "zh-CN": "它有{count}个座位，而这一桌有{players}人"},
    "reason.lineup_preset": {"en-US": "there is no preset called “{name}” (presets: {presets}; a line-up of your own is written “warrior,monk/barbarian,druid/sorcerer,bard”)", "zh-CN": "没有名为“{name}”的预设（预设：{presets}；自定义阵容写作“战士,武僧/野蛮人,德鲁伊/术士,吟游诗人”）"},
    "faction.lawful": {"en-US": "Lawful", "zh-CN": "守序"},
    "faction.neutral": {"en-US": "Neutral", "zh-CN": "中立"},
    "faction.chaotic": {"en-US": "Chaotic", "zh-CN": "混乱"},
    "reason.no_points": {"en-US": "not enough spell points", "zh-CN": "法术点不足"},
}


# The parameters that carry a message key rather than text.
KEY_PARAMS = frozenset({"reason", "what", "expected", "phase", "skill", "faction"})


TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")


def language(locale: str) -> Literal["en-US", "zh-CN", "zh-TW"]:
    """The catalogue language for ``locale``: Traditional Chinese (Discord's zh-TW) is
    zh-TW, any other Chinese zh-CN, the rest en-US."""
    low = locale.lower()
    if low.startswith(TRADITIONAL):
        return "zh-TW"
    return "zh-CN" if low.startswith("zh") else "en-US"


def text_in(entry: Mapping[str, str], lang: str) -> str:
    """``entry``'s text in ``lang``; zh-TW from the zh-CN text when the entry has none
    (engine.zh_tw: the engine's own texts are listed there)."""
    if lang == "zh-TW" and "zh-TW" not in entry:
        return traditional(entry["zh-CN"])
    return entry[lang]


def render_from(
    messages: Mapping[str, Mapping[str, str]],
    fallback: str,
    key_params: frozenset[str],
    key: str,
    locale: str,
    **params: Any,
) -> str:
    """Format ``key`` of ``messages`` for ``locale`` (``fallback``'s text for an unknown
    key). A ``key_params`` parameter whose value is itself a key of ``messages`` is
    rendered first, in the same language; any other value (a skill name someone typed)
    is shown as it is, even if it looks like one. The service's errors render with this
    too, from their own catalogue."""
    lang = language(locale)
    entry = messages.get(key) or messages[fallback]
    params = {
        k: render_from(messages, fallback, key_params, v, locale, **{n: w for n, w in params.items() if n != k})
        if k in key_params and isinstance(v, str) and v in messages
        else v
        for k, v in params.items()
    }
    text = text_in(entry, lang)
    try:
        return text.format(**params)
    except (KeyError, IndexError):
        return text


def render(key: str, locale: str, **params: Any) -> str:
    """Format the engine's message ``key`` for ``locale``."""
    return render_from(MESSAGES, "error.rule", KEY_PARAMS, key, locale, **params)
