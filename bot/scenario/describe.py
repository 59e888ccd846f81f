"""One line of text per engine event, in English or Chinese, for the scenario tool.

This is a moderator's view, not the players' renderer: it names every seat, shows audit
events with their numbers, and falls back to ``Kind key=value`` for an event kind it has
no sentence for (so a new skill's event still shows, just plainly).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import has_key, refusal_text
from bot.i18n.terms import FACTIONS, LOCALES, STATES, TRAITS, Lang, term
from bot.render import words
from bot.render.events import render_event
from engine import Audience, Event, GameState, RuleViolation
from engine.classes import catalogue, class_spec

# Data keys holding one seat, and keys holding a list of seats.
SEAT_KEYS = frozenset({"seat", "attacker", "target", "source", "thief", "victim", "winner", "from_seat", "grappler", "subject", "caster", "owner", "holder", "druid"})
SEAT_LIST_KEYS = frozenset({"order", "tied", "hurt", "targets", "seats"})

_T = dict[str, dict[Lang, str]]

# Player-visible kinds this tool words itself: the end shows the scores a moderator wants.
OWN_WORDS = frozenset({"GameEnded"})

# Sentences for events whose data is flat. Placeholders are the event's data keys after
# seats, skills, states and factions have been put into words.
SIMPLE: _T = {
    "GrailUnclaimed": {"en": "nobody sent a grail number: no grail this round", "zh": "无人提交圣杯数字：本轮圣杯无人获得"},
    "GrailWon": {"en": "you won this round's grail", "zh": "你获得了本轮的圣杯"},
    "GrailStolen": {"en": "your grail was stolen", "zh": "你的圣杯被抢夺了"},
    "WoundedNow": {"en": "you are wounded (HP 0)", "zh": "你进入受伤状态（生命值0）"},
    "YouDied": {"en": "you died", "zh": "你死亡了"},
    "YouWereRemoved": {"en": "you were removed by a moderator", "zh": "你被管理员移出了游戏"},
    "StillWounded": {"en": "you are still wounded", "zh": "你仍处于受伤状态"},
    "Recovered": {"en": "you recovered: HP {hp}/{max_hp}", "zh": "你伤愈了：生命值{hp}/{max_hp}"},
    "Healed": {"en": "you were healed {amount}: HP {hp}/{max_hp}", "zh": "你回复了{amount}点生命：生命值{hp}/{max_hp}"},
    "DamageTaken": {"en": "you took {amount} damage ({cause}): HP {hp}/{max_hp}", "zh": "你受到{amount}点伤害（{cause}）：生命值{hp}/{max_hp}"},
    "FactionWipedOut": {"en": "the {faction} faction is wiped out", "zh": "{faction}阵营全灭"},
    "InitiativeRolled": {"en": "initiative order: {order}", "zh": "先攻顺序：{order}"},
    "ActionLost": {"en": "{seat} cannot pay for {skill}: the action is lost", "zh": "{seat}无法支付{skill}所需的动作：该行动作废"},
    "AttackFizzled": {"en": "{attacker}'s {why} on {target} fizzles", "zh": "{attacker}对{target}的{why}落空（目标已不在或攻击者无法行动）"},
    "DamageDealt": {"en": "{target} takes {amount} damage from {source} ({cause}): HP {hp}", "zh": "{target}受到来自{source}的{amount}点伤害（{cause}）：生命值{hp}"},
    "HealApplied": {"en": "{target} heals {amount} ({cause})", "zh": "{target}回复{amount}点生命（{cause}）"},
    "PlayerDied": {"en": "{seat} dies ({cause}), credited to {source}", "zh": "{seat}死亡（{cause}），记在{source}名下"},
    "ScoreChanged": {"en": "{faction} {points:+d} ({reason}, {seat})", "zh": "{faction}{points:+d}分（{reason}，{seat}）"},
    "StealImpossible": {"en": "{thief} has no free action left to steal from {victim}", "zh": "{thief}没有剩余的自由动作，无法抢夺{victim}的圣杯"},
    "GrailBanked": {"en": "the grail is banked by {seat}", "zh": "圣杯由{seat}收入囊中"},
    "GrailLost": {"en": "the grail carried by {from_seat} is lost for the round", "zh": "{from_seat}携带的圣杯在本轮遗失"},
    "GrailPickedUp": {"en": "{seat} takes the grail from {from_seat}'s body", "zh": "{seat}从{from_seat}身上取得圣杯"},
    "GrappleBroken": {"en": "{seat} breaks free of {grappler}", "zh": "{seat}挣脱了{grappler}的擒抱"},
    "GrappleReleased": {"en": "{seat} lets go", "zh": "{seat}放弃擒抱"},
    "OrdersVoid": {"en": "{seat}'s orders are void ({reason})", "zh": "{seat}的指令无效（{reason}）"},
    "SkillFizzled": {"en": "{seat}'s {skill} fizzles ({reason})", "zh": "{seat}的{skill}失效（{reason}）"},
    "StateInflicted": {"en": "{target} is now {state} (until round {until_round}'s night ends; source {source})", "zh": "{target}陷入{state}状态（持续到第{until_round}轮夜晚结束；来源{source}）"},
    "StateResisted": {"en": "{target} is immune to {state}", "zh": "{target}免疫{state}"},
    # Class skills' events.
    "CompanionDamaged": {"en": "{druid}'s wolf takes {amount} damage from {source}: wolf HP {hp}", "zh": "{druid}的狼受到来自{source}的{amount}点伤害：狼的生命值{hp}"},
    "CompanionHurt": {"en": "your wolf took {amount} damage: HP {hp}/{max_hp}", "zh": "你的狼受到{amount}点伤害：生命值{hp}/{max_hp}"},
    "CompanionHealed": {"en": "your wolf healed {amount}: HP {hp}/{max_hp}", "zh": "你的狼回复{amount}点生命：生命值{hp}/{max_hp}"},
    "CompanionDied": {"en": "your wolf died", "zh": "你的狼死了"},
    "GrappleRolled": {"en": "{seat} grapples {target} (opposed Fortitude): {success}", "zh": "{seat}擒抱{target}（强韧对抗）：{success}"},
    "GrappleHeld": {"en": "you are holding {target}", "zh": "你正擒抱着{target}"},
    "GrappleEscaped": {"en": "{target} broke free of your hold", "zh": "{target}挣脱了你的擒抱"},
    "HuntersMarked": {"en": "{seat} marks {target}", "zh": "{seat}标记了{target}"},
    "IndomitableSaved": {"en": "{seat} is saved from death at HP 0 (damage from {source}, {prevented} prevented)", "zh": "{seat}免于死亡，停在生命值0（伤害来自{source}，抵消{prevented}点）"},
    "OrdersLost": {"en": "{seat} loses tonight's orders ({why} by {source})", "zh": "{seat}失去本夜的指令（{source}的{why}）"},
    "PickpocketEmpty": {"en": "{seat} picks {target}'s pocket: no grail there", "zh": "{seat}扒窃{target}：对方身上没有圣杯"},
    "QuiveringPalmRolled": {"en": "{seat}'s Quivering Palm on {target} (opposed Fortitude): {success}", "zh": "{seat}对{target}的震颤掌（强韧对抗）：{success}"},
    "SnareAvoided": {"en": "{target} avoids {seat}'s snare", "zh": "{target}避开了{seat}的陷阱"},
    "Snared": {"en": "{seat} snares {target} (orders lost: {orders_lost})", "zh": "{seat}的陷阱困住了{target}（指令作废：{orders_lost}）"},
    "WardFailed": {"en": "{seat}'s ward is not raised ({reason})", "zh": "{seat}未能张开护盾（{reason}）"},
    "WardRaised": {"en": "{seat} raises a ward ({points} points left)", "zh": "{seat}张开护盾（剩余{points}点）"},
    "WildSurge": {"en": "{seat}'s wild surge: spells cost nothing tonight", "zh": "{seat}的狂野涌动：本夜法术不耗法术点"},
    "SpellPoints": {"en": "spell points: {points}/{cap} (gained {gained})", "zh": "法术点：{points}/{cap}（获得{gained}）"},
}

WHY: _T = {
    "attack": {"en": "attack", "zh": "近战攻击"},
    "counter": {"en": "counter-attack", "zh": "反击"},
    "vote": {"en": "the vote", "zh": "公决投票"},
    "night": {"en": "at night", "zh": "夜间"},
    "wound": {"en": "wound roll", "zh": "受伤检定"},
    "removed": {"en": "removed by a moderator", "zh": "被管理员移出"},
    "release": {"en": "release", "zh": "放弃擒抱"},
    "allocation": {"en": "grail allocation", "zh": "分配圣杯"},
    "steal": {"en": "steal", "zh": "夺宝"},
    "kill": {"en": "kill", "zh": "击杀"},
    "teamkill": {"en": "teamkill", "zh": "错杀队友"},
    "survivors": {"en": "survivors", "zh": "存活成员"},
    "void": {"en": "lost tonight", "zh": "本夜指令作废"},
    "grappled": {"en": "held by a grappler", "zh": "被擒抱"},
    "grappling": {"en": "holding someone and did not let go first", "zh": "正在擒抱他人且未先放弃擒抱"},
    "no grail": {"en": "has not held the grail tonight", "zh": "本夜未曾拥有圣杯"},
    "no action left": {"en": "no action left", "zh": "没有剩余动作"},
    "no_points": {"en": "not enough spell points", "zh": "法术点不足"},
    "acted": {"en": "the subject had already acted", "zh": "对象已经行动过"},
    "dead target": {"en": "the target is dead", "zh": "目标已死亡"},
    "companion": {"en": "the wolf's attack", "zh": "狼的攻击"},
}

WORDS: _T = {
    "nobody": {"en": "nobody", "zh": "无人"},
    "hit": {"en": "hit", "zh": "命中"},
    "miss": {"en": "miss", "zh": "未命中"},
    "success": {"en": "success", "zh": "成功"},
    "failure": {"en": "failure", "zh": "失败"},
    "none": {"en": "none", "zh": "无"},
    "from_body": {"en": "you took the grail from a body", "zh": "你从倒下者身上取得了圣杯"},
    "taken": {"en": "you took a grail", "zh": "你夺到了圣杯"},
}


def seat_label(state: GameState, seat: int | None, lang: Lang) -> str:
    """'#2 Bo', the one way the bot names a player (:func:`bot.render.words.seat_name`);
    None is 'nobody'."""
    if seat is None:
        return WORDS["nobody"][lang]
    if not 1 <= seat <= len(state.players):
        return words.seat_name(seat, None)
    return words.seat_name(seat, state.player(seat).name)


def skill_label(skill_id: str, class_id: str | None, lang: Lang) -> str:
    """A skill's localized name, looked up in the actor's class, else any class."""
    if skill_id in WHY:
        return WHY[skill_id][lang]
    locale = LOCALES[lang]
    classes = [class_spec(class_id)] if class_id is not None and class_id in catalogue() else []
    for spec in [*classes, *catalogue().values()]:
        s = spec.skill(skill_id)
        if s is not None:
            return s.name[locale]
    return skill_id


class Describer:
    """Puts events into words against the table they happened at (for names)."""

    def __init__(self, state: GameState, lang: Lang) -> None:
        self.state = state
        self.lang = lang
        self.names = {p.seat: p.name for p in state.players}
        self.special: dict[str, Callable[[dict[str, Any]], str]] = {
            "AttackRolled": self._attack,
            "StealRolled": self._steal,
            "ActionTaken": self._action,
            "GrailAllocated": self._allocation,
            "VotesCounted": self._votes,
            "VoteDetail": self._vote_detail,
            "PlayerLeft": self._left,
            "GameEnded": self._ended,
            "IdentificationAnswered": self._identified,
            "GrailTaken": lambda d: WORDS["from_body" if d.get("from_body") else "taken"][self.lang],
            "SubmissionDropped": self._dropped,
            "SpellCast": self._spell,
            "SpellFizzled": lambda d: self._spell(d, fizzled=True),
            "SpeakWithDead": self._speak_with_dead,
            "BardicKnowledge": self._bardic,
        }

    def describe(self, event: Event) -> str:
        """The event as one line. What players receive (public and private events) is
        worded by the bot's own renderer, exactly as they would read it; the audit trail
        is worded here; unknown kinds (or data) fall back to key=value."""
        if event.audience is not Audience.AUDIT and event.kind not in OWN_WORDS and has_key(f"event.{event.kind}"):
            return render_event(event, LOCALES[self.lang], self.names).replace("\n", " / ")
        try:
            if event.kind in self.special:
                return self.special[event.kind](event.data)
            if event.kind in SIMPLE:
                return SIMPLE[event.kind][self.lang].format(**self._words(event.data))
        except (KeyError, ValueError, TypeError, IndexError):
            pass
        return self.plain(event)

    def plain(self, event: Event) -> str:
        words = self._words(event.data)
        return event.kind + "".join(f" {k}={v}" for k, v in words.items())

    # -- helpers ---------------------------------------------------------------------
    def seat(self, seat: int | None) -> str:
        return seat_label(self.state, seat, self.lang)

    def seats(self, seats: list[int]) -> str:
        sep = ", " if self.lang == "en" else "、"
        return sep.join(self.seat(s) for s in seats) or WORDS["nobody"][self.lang]

    def _class_of(self, seat: Any) -> str | None:
        if isinstance(seat, int) and 1 <= seat <= len(self.state.players):
            return self.state.player(seat).class_id
        return None

    def _words(self, data: dict[str, Any]) -> dict[str, Any]:
        actor = self._class_of(data.get("seat", data.get("attacker", data.get("source"))))
        out: dict[str, Any] = {}
        for k, v in data.items():
            if k in SEAT_KEYS and (v is None or isinstance(v, int)):
                out[k] = self.seat(v)
            elif k in SEAT_LIST_KEYS and isinstance(v, list):
                out[k] = self.seats(v)
            elif k in ("skill", "why", "cause", "reason") and isinstance(v, str):
                out[k] = skill_label(v, actor, self.lang)
            elif k == "state" and isinstance(v, str):
                out[k] = term(STATES, v, self.lang)
            elif k == "faction" and isinstance(v, str):
                out[k] = term(FACTIONS, v, self.lang)
            elif isinstance(v, bool):
                out[k] = WORDS["success" if v else "failure"][self.lang]
            elif v is None:
                out[k] = WORDS["none"][self.lang]
            else:
                out[k] = v
        return out

    # -- events with structure -------------------------------------------------------
    def _attack(self, d: dict[str, Any]) -> str:
        why = skill_label(d["why"], self._class_of(d["attacker"]), self.lang)
        if d.get("companion") and d["why"] != "companion":
            target = self.seat(d["target"]) + ("'s wolf" if self.lang == "en" else "的狼")
            d = {**d, "target": None}
        else:
            target = self.seat(d["target"])
        verdict = WORDS["hit" if d["hit"] else "miss"][self.lang]
        if self.lang == "en":
            return f"{self.seat(d['attacker'])} → {target} ({why}): d100 {d['roll']} vs ≤ {d['need']}: {verdict}"
        return f"{self.seat(d['attacker'])}→{target}（{why}）：d100={d['roll']}，需≤{d['need']}：{verdict}"

    def _steal(self, d: dict[str, Any]) -> str:
        verdict = WORDS["success" if d["success"] else "failure"][self.lang]
        if self.lang == "en":
            return f"{self.seat(d['thief'])} tries to steal the grail from {self.seat(d['victim'])} ({d['chance']}%): {verdict}"
        return f"{self.seat(d['thief'])}尝试夺取{self.seat(d['victim'])}的圣杯（{d['chance']}%）：{verdict}"

    def _action(self, d: dict[str, Any]) -> str:
        skill = skill_label(d["skill"], self._class_of(d["seat"]), self.lang)
        targets = d.get("targets") or []
        amount = d.get("amount")
        if self.lang == "en":
            text = f"{self.seat(d['seat'])} acts: {skill}"
            text += f" → {self.seats(targets)}" if targets else ""
            return text + (f" ({amount} points)" if amount is not None else "")
        text = f"{self.seat(d['seat'])}行动：{skill}"
        text += f"→{self.seats(targets)}" if targets else ""
        return text + (f"（{amount}点）" if amount is not None else "")

    def _allocation(self, d: dict[str, Any]) -> str:
        if self.lang == "en":
            numbers = ", ".join(f"#{k}: {v}" for k, v in d["numbers"].items())
            return f"grail numbers ({numbers}), mean {d['mean']}; closest {self.seats(d['tied'])}; the grail goes to {self.seat(d['winner'])}"
        numbers = "，".join(f"#{k}：{v}" for k, v in d["numbers"].items())
        return f"圣杯数字（{numbers}），平均数{d['mean']}；最接近：{self.seats(d['tied'])}；圣杯归{self.seat(d['winner'])}"

    def _votes(self, d: dict[str, Any]) -> str:
        if self.lang == "en":
            counts = ", ".join(f"{self.seat(c['seat'])} {c['votes']}" for c in d["counts"]) or "no votes"
            return f"vote counts: {counts}; hurt: {self.seats(d['hurt'])}"
        counts = "，".join(f"{self.seat(c['seat'])}{c['votes']}票" for c in d["counts"]) or "无人投票"
        return f"得票：{counts}；受到伤害：{self.seats(d['hurt'])}"

    def _vote_detail(self, d: dict[str, Any]) -> str:
        pairs = ", ".join(f"{self.seat(int(k))}→{self.seat(v)}" for k, v in d["votes"].items())
        return ("votes: " if self.lang == "en" else "投票明细：") + pairs

    def _left(self, d: dict[str, Any]) -> str:
        text = f"{self.seat(d['seat'])} has left the game" if self.lang == "en" else f"{self.seat(d['seat'])}出局"
        if "class_id" in d:
            locale = LOCALES[self.lang]
            cls = class_spec(d["class_id"]).name[locale]
            fac = term(FACTIONS, d["faction"], self.lang)
            text += f" ({fac} {cls})" if self.lang == "en" else f"（{fac}{cls}）"
        return text

    def _ended(self, d: dict[str, Any]) -> str:
        scores = ", ".join(f"{term(FACTIONS, f, self.lang)} {n}" for f, n in d["scores"].items())
        winners = ", ".join(term(FACTIONS, f, self.lang) for f in d["winners"])
        reason = {"score": ("a faction reached the winning score", "有阵营达到获胜分数"), "majority": ("one faction outnumbers all others", "某阵营存活人数超过其余阵营之和"), "extinction": ("nobody is left alive", "无人存活")}.get(d["reason"], (d["reason"], d["reason"]))
        if self.lang == "en":
            return f"the game ends ({reason[0]}); scores {scores}; winners: {winners}"
        return f"游戏结束（{reason[1]}）；比分{scores}；获胜：{winners}"

    def _identified(self, d: dict[str, Any]) -> str:
        items = []
        for g in d["confirmed"]:
            value = {"trait": lambda v: term(TRAITS, v, self.lang), "faction": lambda v: term(FACTIONS, v, self.lang)}.get(g["what"], lambda v: class_spec(v).name["zh-CN" if self.lang == "zh" else "en-US"])(g["value"])
            items.append(f"{self.seat(g['target'])}: {value}" if self.lang == "en" else f"{self.seat(g['target'])}：{value}")
        if self.lang == "en":
            return f"identification ({d['asked']} asked): confirmed " + ("; ".join(items) or "nothing")
        return f"指认（共{d['asked']}项）：确认 " + ("；".join(items) or "无")

    def _dropped(self, d: dict[str, Any]) -> str:
        why = refusal_text(RuleViolation(d["key"]), "zh-CN" if self.lang == "zh" else "en-US")
        if self.lang == "en":
            return f"{self.seat(d['seat'])}'s {d.get('submission', d.get('kind'))} was dropped: {why}"
        return f"{self.seat(d['seat'])}的{d.get('submission', d.get('kind'))}提交被丢弃：{why}"

    def _spell(self, d: dict[str, Any], fizzled: bool = False) -> str:
        en = self.lang == "en"
        spell = skill_label(d["why"], self._class_of(d["caster"]), self.lang)
        on = d.get("targets")
        whom = self.seats(on) if isinstance(on, list) else self.seat(d.get("target"))
        details = []
        for key, (en_word, zh_word) in SPELL_DETAILS.items():
            if key not in d:
                continue
            v = d[key]
            if key == "success":
                shown = WORDS["success" if v else "failure"][self.lang]
            elif key == "victim":
                shown = self.seat(v)
            elif key == "reason":
                shown = skill_label(v, None, self.lang)
            elif isinstance(v, bool):
                shown = ("yes" if v else "no") if en else ("是" if v else "否")
            else:
                shown = str(v)
            details.append(f"{en_word}{shown}" if en else f"{zh_word}{shown}")
        if fizzled and "reason" not in d:
            details.append("fizzles" if en else "失效")
        tail = ("; " if en else "；").join(details)
        if en:
            return f"{self.seat(d['caster'])} casts {spell} on {whom}" + (f": {tail}" if tail else "")
        return f"{self.seat(d['caster'])}对{whom}施展{spell}" + (f"：{tail}" if tail else "")

    def _speak_with_dead(self, d: dict[str, Any]) -> str:
        sep = "; " if self.lang == "en" else "；"
        items = sep.join(f"{self.seat(x['seat'])} {term(FACTIONS, x['faction'], self.lang)}" for x in d["dead"])
        return ("the dead speak: " if self.lang == "en" else "通灵：") + (items or WORDS["nobody"][self.lang])

    def _bardic(self, d: dict[str, Any]) -> str:
        trait = term(TRAITS, d["trait"], self.lang)
        if self.lang == "en":
            return f"bardic knowledge: {self.seat(d['target'])} has the {trait} trait"
        return f"吟游知识：{self.seat(d['target'])}拥有“{trait}”特质"


# SpellCast / SpellFizzled details, in the order shown.
SPELL_DETAILS: dict[str, tuple[str, str]] = {
    "success": ("", ""),
    "victim": ("victim ", "受害者"),
    "points": ("points ", "法术点"),
    "dodged": ("Reflex passed ", "反射检定通过："),
    "damage": ("damage ", "伤害"),
    "amount": ("healing rolled ", "治疗量"),
    "gained": ("HP gained ", "实际回复"),
    "reason": ("fizzles: ", "失效："),
}
