"""The class sections of the rules document, rendered from the class catalogue.

Everything here is read from ``engine.classes.catalogue()`` (stats, traits, identification
rule, starting memory, every skill with its kinds, cost, targets and localized text) and
the roster ``FACTION_ROWS``, so the document says what the engine does.
"""

from __future__ import annotations

from bot.i18n.terms import COSTS, KINDS, LOCALES, SAVES, TRAITS, Lang, term
from bot.i18n.terms import FACTIONS as FACTION_NAMES
from engine.classes import FACTION_ROWS, ClassSpec, IdentifySlot, SkillSpec, catalogue
from engine.values import FACTIONS

# The order the source lists the classes in (战士，法师，野蛮人，游荡者，术士，德鲁伊，吟游诗人，
# 武僧，牧师，游侠，圣武士); any class it does not list follows, alphabetically.
SOURCE_ORDER = ("warrior", "wizard", "barbarian", "rogue", "sorcerer", "druid", "bard", "monk", "cleric", "ranger", "paladin")

NUMBERS_EN = {1: "one", 2: "two", 3: "three"}

LABELS: dict[str, dict[Lang, str]] = {
    "class": {"en": "Class", "zh": "职业"},
    "hp": {"en": "HP", "zh": "生命上限"},
    "traits": {"en": "Traits", "zh": "特质"},
    "ac": {"en": "AC (armor + Dex)", "zh": "AC（盔甲+敏捷）"},
    "damage": {"en": "Damage", "zh": "伤害（DM）"},
    "saves": {"en": "Will / Reflex / Fortitude", "zh": "意志 / 反射 / 强韧"},
    "factions": {"en": "Factions", "zh": "阵营"},
    "dealt_to": {"en": "Dealt to", "zh": "所属阵营"},
    "identify": {"en": "Identification", "zh": "指认"},
    "skills": {"en": "Skills", "zh": "技能"},
    "skill": {"en": "Skill", "zh": "技能"},
    "order_id": {"en": "Order id", "zh": "指令ID"},
    "kinds": {"en": "Kinds", "zh": "种类"},
    "cost": {"en": "Cost", "zh": "消耗"},
    "targets": {"en": "Targets", "zh": "目标"},
    "start": {"en": "At the start", "zh": "开局时"},
}


def ordered() -> list[ClassSpec]:
    """Every catalogued class, in the source's order."""
    cat = catalogue()
    known = [cat[c] for c in SOURCE_ORDER if c in cat]
    rest = sorted((c for c in cat.values() if c.id not in SOURCE_ORDER), key=lambda c: c.id)
    return known + rest


def _name(spec: ClassSpec | SkillSpec, lang: Lang) -> str:
    return spec.name[LOCALES[lang]]


def _other_name(spec: ClassSpec | SkillSpec, lang: Lang) -> str:
    return spec.name[LOCALES["zh" if lang == "en" else "en"]]


def _join(items: list[str], lang: Lang, last: str | None = None) -> str:
    """'a, b and c' / 'a、b和c'; ``last`` replaces the final 'and'."""
    if len(items) <= 1:
        return "".join(items)
    if lang == "en":
        return ", ".join(items[:-1]) + f" {last or 'and'} " + items[-1]
    return "、".join(items[:-1]) + (last or "和") + items[-1]


def factions_of(class_id: str) -> list[str]:
    return [f.value for f in FACTIONS if class_id in FACTION_ROWS[f]]


def ac_text(spec: ClassSpec) -> str:
    return f"{spec.armor + spec.dex}% ({spec.armor}%+{spec.dex}%)"


def traits_text(spec: ClassSpec, lang: Lang) -> str:
    return ("、" if lang == "zh" else ", ").join(term(TRAITS, t.value, lang) for t in spec.traits)


def slot_text(slot: IdentifySlot, lang: Lang) -> str:
    """One identification slot: 'two names for the Holy trait' / '2个ID指认“神圣”特质'."""
    table = {"trait": TRAITS, "faction": FACTION_NAMES}.get(slot.what)
    if lang == "en":
        count = NUMBERS_EN.get(slot.count, str(slot.count))
        names = f"{count} name{'s' if slot.count > 1 else ''}"
        if not slot.values:
            return f"{names} for any {slot.what}"
        values = [term(table, v, "en") if table else _class_name(v, "en") for v in slot.values]
        noun = "" if slot.what == "class" else f" {slot.what}"
        return f"{names} for the {_join(values, 'en', 'or')}{noun}"
    kind = {"trait": "特质", "faction": "阵营", "class": "职业"}[slot.what]
    if not slot.values:
        return f"{slot.count}个ID指认任意{kind}"
    values = [f"“{term(table, v, 'zh') if table else _class_name(v, 'zh')}”" for v in slot.values]
    return f"{slot.count}个ID指认{_join(values, 'zh', '或')}{kind}"


def identify_text(spec: ClassSpec, lang: Lang) -> str:
    """The whole rule: 'Each night: one name for ..., and one name for ....'"""
    slots = [slot_text(s, lang) for s in spec.identify]
    if lang == "en":
        return "Each night: " + _join(slots, "en") + "."
    return "每夜可提交" + slots[0] + "".join(f"，另可提交{s}" for s in slots[1:]) + "。"


def _class_name(class_id: str, lang: Lang) -> str:
    return _name(catalogue()[class_id], lang) if class_id in catalogue() else class_id


def kinds_text(skill: SkillSpec, lang: Lang) -> str:
    return ("、" if lang == "zh" else ", ").join(term(KINDS, k, lang) for k in skill.kinds)


def cost_text(skill: SkillSpec, lang: Lang) -> str:
    """What ordering it costs; passive skills cost nothing, toggles are set with the orders."""
    if skill.mode == "passive":
        return "—"
    if skill.mode == "toggle":
        return "set with the orders" if lang == "en" else "随指令开启"
    text = term(COSTS, skill.cost, lang)
    if skill.group is not None:
        text += " (one for the whole volley)" if lang == "en" else "（整组齐射只需一个）"
    if skill.amount is not None:
        lo, hi = skill.amount
        text += f"; {lo}–{hi} points" if lang == "en" else f"；{lo}–{hi}点"
    return text


def targets_text(skill: SkillSpec, lang: Lang) -> str:
    lo, hi = skill.targets
    if hi == 0:
        return "—"
    count = str(lo) if lo == hi else f"{lo}–{hi}"
    if skill.target_self:
        count += " (yourself allowed)" if lang == "en" else "（可以是自己）"
    return count


def memory_lines(spec: ClassSpec, lang: Lang) -> list[str]:
    out = []
    for key, value in spec.memory.items():
        if key == "companion_hp":
            out.append(f"an animal companion (a wolf) with {value} HP" if lang == "en" else f"有一匹生命值为{value}的狼作为动物伙伴")
        elif key == "spell_points":
            out.append(f"{value} spell points" if lang == "en" else f"拥有{value}点法术点")
        else:
            out.append(f"{key} = {value}")
    return out


def class_section(spec: ClassSpec, lang: Lang) -> str:
    """One class: heading, blurb, stats, factions, identification, skills."""
    loc = LOCALES[lang]
    lb = {k: v[lang] for k, v in LABELS.items()}
    saves = " / ".join(f"{getattr(spec, s)}%" for s in SAVES)
    lines = [
        f"### {_name(spec, lang)} ({_other_name(spec, lang)})" if lang == "en" else f"### {_name(spec, lang)}（{_other_name(spec, lang)}）",
        "",
        f"*{spec.blurb[loc]}*",
        "",
        f"| {lb['hp']} | {lb['traits']} | AB | {lb['ac']} | {lb['damage']} | {lb['saves']} |",
        "|---|---|---|---|---|---|",
        f"| {spec.hp} | {traits_text(spec, lang)} | {spec.ab}% | {ac_text(spec)} | d{spec.damage} | {saves} |",
        "",
    ]
    colon = ": " if lang == "en" else "："
    sep = ", " if lang == "en" else "、"
    lines.append(f"- **{lb['dealt_to']}**{colon}{sep.join(term(FACTION_NAMES, f, lang) for f in factions_of(spec.id))}")
    lines.append(f"- **{lb['identify']}**{colon}{identify_text(spec, lang)}")
    memory = memory_lines(spec, lang)
    if memory:
        lines.append(f"- **{lb['start']}**{colon}{_join(memory, lang)}")
    lines += [
        "",
        f"| {lb['skill']} | {lb['order_id']} | {lb['kinds']} | {lb['cost']} | {lb['targets']} |",
        "|---|---|---|---|---|",
    ]
    for s in spec.skills:
        lines.append(f"| {_name(s, lang)} | `{s.id}` | {kinds_text(s, lang)} | {cost_text(s, lang)} | {targets_text(s, lang)} |")
    lines.append("")
    for s in spec.skills:
        lines.append(f"- **{_name(s, lang)}**（{_other_name(s, lang)}）：{s.text[loc]}" if lang == "zh" else f"- **{_name(s, lang)}** ({_other_name(s, lang)}): {s.text[loc]}")
    return "\n".join(lines)


def overview(lang: Lang) -> str:
    """All classes at a glance."""
    lb = {k: v[lang] for k, v in LABELS.items()}
    lines = [
        f"| {lb['class']} | {lb['hp']} | {lb['traits']} | AB | {lb['ac']} | {lb['damage']} | {lb['saves']} | {lb['factions']} |",
        "|---|---|---|---|---|---|---|---|",
    ]
    sep = ", " if lang == "en" else "、"
    for spec in ordered():
        saves = " / ".join(f"{getattr(spec, s)}%" for s in SAVES)
        facs = sep.join(term(FACTION_NAMES, f, lang) for f in factions_of(spec.id))
        lines.append(f"| {_name(spec, lang)} | {spec.hp} | {traits_text(spec, lang)} | {spec.ab}% | {ac_text(spec)} | d{spec.damage} | {saves} | {facs} |")
    return "\n".join(lines)


def classes_markdown(lang: Lang) -> str:
    """The ``{{classes}}`` placeholder: the overview table, then every class."""
    return "\n\n".join([overview(lang), *(class_section(c, lang) for c in ordered())])


def roster_markdown(lang: Lang) -> str:
    """The ``{{roster}}`` placeholder: each faction's row of classes."""
    head = "| Faction | Classes |" if lang == "en" else "| 阵营 | 职业 |"
    lines = [head, "|---|---|"]
    sep = ", " if lang == "en" else "、"
    for f in FACTIONS:
        lines.append(f"| {term(FACTION_NAMES, f.value, lang)} | {sep.join(_class_name(c, lang) for c in FACTION_ROWS[f])} |")
    return "\n".join(lines)
