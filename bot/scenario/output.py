"""Printing a scenario's result: one run (events, rolls, the table before and after) or
the statistics of many runs, as text in English or Chinese, or as JSON."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n.terms import AUDIENCES, FACTIONS, LOCALES, PHASES, STATES, Lang, term
from bot.scenario.build import Scenario
from bot.scenario.describe import Describer, seat_label, skill_label
from bot.scenario.run import Stats, Tally
from engine import Event, GameState, Outcome
from engine.classes import class_spec

L: dict[str, dict[Lang, str]] = {
    "scenario": {"en": "Scenario", "zh": "推演"},
    "seed": {"en": "seed", "zh": "种子"},
    "round": {"en": "round", "zh": "第{n}轮"},
    "before": {"en": "Before", "zh": "推演前"},
    "after": {"en": "After", "zh": "推演后"},
    "events": {"en": "Events", "zh": "事件"},
    "rolls": {"en": "Rolls", "zh": "掷骰"},
    "pass": {"en": "pass", "zh": "通过"},
    "fail": {"en": "fail", "zh": "失败"},
    "grail": {"en": "grail", "zh": "圣杯"},
    "scores": {"en": "Scores", "zh": "比分"},
    "next": {"en": "Next phase", "zh": "下一阶段"},
    "runs": {"en": "runs", "zh": "次"},
    "deaths": {"en": "Deaths", "zh": "死亡"},
    "wounded": {"en": "Wounded at the end", "zh": "结束时受伤"},
    "grail_end": {"en": "Grail at the end", "zh": "圣杯最终归属"},
    "attacks": {"en": "Attacks (hit rate)", "zh": "攻击（命中率）"},
    "steals": {"en": "Steals (success rate)", "zh": "夺宝（成功率）"},
    "checks": {"en": "Other checks (pass rate)", "zh": "其他检定（通过率）"},
    "hp": {"en": "HP at the end", "zh": "结束时生命值"},
    "states": {"en": "States at the end", "zh": "结束时的异常状态"},
    "vote_hurt": {"en": "Hurt by the vote", "zh": "因投票受伤"},
    "points": {"en": "Mean points gained", "zh": "平均得分"},
    "ended": {"en": "Game ended", "zh": "游戏结束"},
    "died": {"en": "died", "zh": "死亡"},
    "dead": {"en": "dead", "zh": "死亡"},
    "of": {"en": "of", "zh": "/"},
    "nothing": {"en": "(none)", "zh": "（无）"},
}


def _l(key: str, lang: Lang) -> str:
    return L[key][lang]


def _punctuate(text: str, lang: Lang) -> str:
    """Chinese text takes full-width colons and commas (the layout is shared)."""
    if lang != "zh":
        return text
    text = re.sub(r":(?=\n|$)", "：", text)
    return text.replace(": ", "：").replace(", ", "，").replace("; ", "；")


def audience_label(event: Event, state: GameState, lang: Lang) -> str:
    """'[public]', '[private → seat 2 (Bo)]', '[audit]'."""
    name = term(AUDIENCES, event.audience.value, lang)
    if event.seat is not None:
        return f"[{name} → {seat_label(state, event.seat, lang)}]"
    return f"[{name}]"


def table_lines(state: GameState, lang: Lang) -> list[str]:
    """One line per seat: class, faction, HP, states, grail, banked grails."""
    locale = LOCALES[lang]
    lines = []
    for p in state.players:
        cls = class_spec(p.class_id).name[locale]
        fac = term(FACTIONS, p.faction.value, lang)
        hp = f"HP {p.hp}/{p.max_hp}" if p.alive else term(STATES, "dead", lang)
        if p.wounded:
            hp += f" ({term(STATES, 'wounded', lang)})" if lang == "en" else f"（{term(STATES, 'wounded', lang)}）"
        states = [term(STATES, k, lang) + (f"←{c.source}" if c.source else "") for k, c in sorted(p.conditions.items())]
        extra = []
        if state.grail_holder == p.seat:
            extra.append("★" + _l("grail", lang))
        if p.memory:
            shown = {k: v for k, v in p.memory.items() if k != "confirmed"}
            if shown:
                extra.append(" ".join(f"{k}={v}" for k, v in sorted(shown.items())))
        sep, colon = (", ", ": ") if lang == "en" else ("，", "：")
        who = f"{fac} {cls}" if lang == "en" else f"{fac}{cls}"
        parts = [who, hp, *(["/".join(states)] if states else []), *extra]
        lines.append(f"  {seat_label(state, p.seat, lang)}{colon}{sep.join(parts)}")
    return lines


def header(scenario: Scenario, seed: str, lang: Lang) -> str:
    st = scenario.state
    rnd = f"round {st.round}" if lang == "en" else f"第{st.round}轮"
    return f"{_l('scenario', lang)}: {scenario.title} — {rnd}, {term(PHASES, st.phase.value, lang)}; {_l('seed', lang)} {seed!r}"


def single_text(scenario: Scenario, seed: str, outcome: Outcome, lang: Lang) -> str:
    """The human-readable report of one run."""
    describer = Describer(scenario.state, lang)
    out = [header(scenario, seed, lang), "", _l("before", lang) + ":", *table_lines(scenario.state, lang), "", _l("events", lang) + ":"]
    width = max((len(audience_label(e, scenario.state, lang)) for e in outcome.events), default=0)
    for e in outcome.events:
        out.append(f"  {audience_label(e, scenario.state, lang).ljust(width)}  {describer.describe(e)}")
    if not outcome.events:
        out.append("  " + _l("nothing", lang))
    out += ["", _l("rolls", lang) + ":"]
    # The modifiers the engine used (tonight's toggles included), from its audit event.
    mods = {
        seat: mod
        for e in outcome.events
        if e.kind == "InitiativeRolled"
        for seat, mod in zip(e.data["order"], e.data["modifiers"], strict=True)
    }
    for i, r in enumerate(outcome.rolls, start=1):
        who = seat_label(scenario.state, r.who, lang) if r.who is not None else "DM"
        line = f"  {i:>3}. {who} {r.why}: d{r.die} = {r.result}"
        if r.why == "initiative" and r.who in mods:
            mod = mods[r.who]
            line += f" + {mod} = {r.result + mod}"
        if r.need is not None:
            line += f" (≤ {r.need}: {_l('pass' if r.result <= r.need else 'fail', lang)})"
        out.append(line)
    if not outcome.rolls:
        out.append("  " + _l("nothing", lang))
    after = outcome.state
    out += ["", _l("after", lang) + ":", *table_lines(after, lang)]
    scores = ", ".join(f"{term(FACTIONS, f, lang)} {n} ({n - scenario.state.scores.get(f, 0):+d})" for f, n in after.scores.items())
    out.append(f"  {_l('scores', lang)}: {scores}")
    nxt = term(PHASES, after.phase.value, lang)
    if not after.over:
        nxt = f"{nxt}, round {after.round}" if lang == "en" else f"第{after.round}轮{nxt}"
    out.append(f"  {_l('next', lang)}: {nxt}")
    return _punctuate("\n".join(out), lang)


def single_json(scenario: Scenario, seed: str, outcome: Outcome, lang: Lang) -> dict[str, Any]:
    """The machine-readable report of one run: events with their text, every roll, the
    state before and after."""
    describer = Describer(scenario.state, lang)
    return {
        "title": scenario.title,
        "file": scenario.source,
        "seed": seed,
        "round": scenario.state.round,
        "phase": scenario.state.phase.value,
        "events": [{**e.to_dict(), "text": describer.describe(e)} for e in outcome.events],
        "rolls": [r.to_dict() for r in outcome.rolls],
        "before": scenario.state.to_dict(),
        "after": outcome.state.to_dict(),
    }


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _tally(t: Tally, lang: Lang) -> str:
    return f"{_pct(t.successes, t.attempts)} ({t.successes}/{t.attempts})"


def stats_text(scenario: Scenario, stats: Stats, lang: Lang) -> str:
    """The human-readable statistics of many runs."""
    st = scenario.state

    def seat(s: int | None) -> str:
        return seat_label(st, s, lang) if s is not None else "DM"

    def section(key: str, lines: list[str]) -> list[str]:
        return ["", _l(key, lang) + ":", *(lines or ["  " + _l("nothing", lang)])]

    runs = f"{stats.runs} {_l('runs', lang)}"
    out = [f"{header(scenario, stats.base_seed, lang)}; {runs} ({stats.base_seed}#0 … {stats.base_seed}#{stats.runs - 1})"]
    out += section("deaths", [f"  {seat(s)} {_l('died', lang)}: {_pct(n, stats.runs)} ({n})" for s, n in sorted(stats.deaths.items())])
    out += section("wounded", [f"  {seat(s)}: {_pct(n, stats.runs)} ({n})" for s, n in sorted(stats.wounded.items())])
    if stats.grail:
        out += section("grail_end", [f"  {_outcome(st, k, lang)}: {_pct(n, stats.runs)} ({n})" for k, n in stats.grail.most_common()])
    out += section("attacks", [
        f"  {seat(a)} → {_attack_target(st, t, w, lang)} ({skill_label(w.removesuffix('@wolf'), st.player(a).class_id, lang)}): {_tally(tally, lang)}"
        for (a, t, w), tally in sorted(stats.attacks.items())
    ])
    if stats.steals:
        out += section("steals", [f"  {seat(a)} → {seat(v)}: {_tally(t, lang)}" for (a, v), t in sorted(stats.steals.items())])
    if stats.checks:
        out += section("checks", [f"  {seat(w)} {why}: {_tally(t, lang)}" for (w, why), t in sorted(stats.checks.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1]))])
    hp_lines = []
    for s, c in sorted(stats.hp.items()):
        parts = sorted(c.items(), key=lambda kv: (kv[0] == "dead", -int(kv[0]) if kv[0] != "dead" else 0))
        hp_lines.append(f"  {seat(s)}: " + ", ".join(f"{_hp_key(k, lang)} {_pct(n, stats.runs)}" for k, n in parts))
    out += section("hp", hp_lines)
    state_lines = [
        f"  {seat(s)}: " + ", ".join(f"{term(STATES, k, lang)} {_pct(n, stats.runs)}" for k, n in sorted(c.items()))
        for s, c in sorted(stats.states.items()) if c
    ]
    if state_lines:
        out += section("states", state_lines)
    if stats.vote_hurt:
        out += section("vote_hurt", [f"  {seat(s)}: {_pct(n, stats.runs)} ({n})" for s, n in sorted(stats.vote_hurt.items())])
    out += section("points", [f"  {term(FACTIONS, f, lang)}: {stats.points[f] / stats.runs:+.2f}" for f in FACTIONS if stats.runs])
    if stats.endings:
        out += section("ended", [f"  {k}: {_pct(n, stats.runs)} ({n})" for k, n in sorted(stats.endings.items())])
    return _punctuate("\n".join(out), lang)


def _attack_target(state: GameState, seat: int, why: str, lang: Lang) -> str:
    """The target, or its wolf when the Druid's companion took the attack."""
    label = seat_label(state, seat, lang)
    if why.endswith("@wolf"):
        return f"{label}'s wolf" if lang == "en" else f"{label}的狼"
    return label


def _hp_key(k: str, lang: Lang) -> str:
    return _l("dead", lang) if k == "dead" else f"HP {k}"


def _outcome(state: GameState, key: str, lang: Lang) -> str:
    if key.startswith("seat "):
        return seat_label(state, int(key.removeprefix("seat ")), lang)
    words = {"lost": ("lost for the round", "本轮遗失"), "none": ("nobody held it", "无人持有"), "unclaimed": ("unclaimed", "无人获得")}
    en, zh = words.get(key, (key, key))
    return en if lang == "en" else zh
