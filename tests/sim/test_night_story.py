"""Each seat's private report is the story of its night: many seeded games played by
the engine and the baseline AI (bot.ai), each seat's private news read in order as one
story from the first Day to the end. Its HP never jumps (every
blow that reached it is told, before the save it set off), nothing is told after its
death but the orders its death cancelled, and every order it gave either happened or is
told not to have happened, with its reason (orders made void by a state the player is
never told of, R9, excepted). The report is rendered in the engine's order."""

from __future__ import annotations

from typing import Any

from bot.ai.runner import play_game
from bot.render.events import render_event
from bot.render.posts import private_embed
from engine import Audience, Event, new_game
from engine.submissions import Orders

GAMES = 24
PLAYERS = 12


def story_problems(seed: str) -> tuple[list[str], set[str]]:
    """What contradicts itself in any seat's reports of one game, and the kinds seen."""
    state = new_game([f"P{i}" for i in range(1, PLAYERS + 1)], seed)
    hp = {p.seat: p.max_hp for p in state.players}
    alive = dict.fromkeys(hp, True)
    record: list[dict[int, list[Any]]] = []
    steps: list[list[Event]] = []
    play_game(seed, start=state, record=record, steps=steps)
    problems: list[str] = []
    seen: set[str] = set()
    for n, (subs, events) in enumerate(zip(record, steps, strict=True)):
        for seat, sent in subs.items():
            orders = [x for x in sent if isinstance(x, Orders)]
            # Letting go is no act of the night's story: done first, or moot once the
            # held one broke free (its grappler told so).
            actions = [a for a in orders[-1].actions if a.skill != "release"] if orders else []
            if not actions:
                continue
            mine = [e for e in events if e.data.get("seat") == seat or e.seat == seat]
            if any(e.kind == "OrdersVoid" for e in mine):
                continue  # R9: the state that voided them is not told
            if any(e.kind == "SpellCast" and e.data.get("why") == "suggestion" and e.data["target"] == seat and e.data["success"] for e in events):
                continue  # orders a Bard's Suggestion rewrote: not told, it would expose the Bard
            taken = sum(e.kind == "ActionTaken" for e in mine if e.audience is Audience.AUDIT)
            told = sum(len([x for x in e.data["skills"] if x != "release"]) for e in mine if e.kind == "OrdersNotDone")
            if taken + told != len(actions):
                problems.append(f"{seed} step {n} seat {seat}: {len(actions)} orders, {taken} done, {told} told undone")
        for e in events:
            if e.audience is not Audience.PRIVATE or e.seat is None:
                continue
            s, d, k = e.seat, e.data, e.kind
            seen.add(k)
            where = f"{seed} step {n} seat {s} {k} {d}"
            if not alive[s] and k != "OrdersNotDone":
                problems.append(f"{where}: told after its death")
            if k == "DamageTaken":
                if hp[s] - d["amount"] != d["hp"]:
                    problems.append(f"{where}: HP was {hp[s]}")
                hp[s] = d["hp"]
            elif k == "IndomitableSaved":
                if "amount" not in d or hp[s] - d["amount"] >= 0:
                    problems.append(f"{where}: no killing blow told (HP {hp[s]})")
                hp[s] = 0
            elif k in ("WoundedNow", "StillWounded") and hp[s] != 0:
                problems.append(f"{where}: HP is {hp[s]}")
            elif k == "Recovered":
                if hp[s] != 0:
                    problems.append(f"{where}: was not wounded (HP {hp[s]})")
                hp[s] = d["hp"]
            elif k == "Healed":
                if hp[s] + d["amount"] != d["hp"]:
                    problems.append(f"{where}: HP was {hp[s]}")
                hp[s] = d["hp"]
            elif k == "YouDied":
                if "amount" in d and hp[s] - d["amount"] >= 0:
                    problems.append(f"{where}: HP was {hp[s]}")
                alive[s] = False
            elif k == "OrdersNotDone" and ((d["reason"] == "dead" and alive[s]) or (d["reason"] == "wounded" and hp[s] != 0)):
                problems.append(f"{where}: HP {hp[s]}, alive {alive[s]}")
        # The report shows the seat's news in the engine's order, one line each.
        by_seat: dict[int, list[Event]] = {}
        for e in events:
            if e.audience is Audience.PRIVATE and e.seat is not None:
                by_seat.setdefault(e.seat, []).append(e)
        for s, evs in by_seat.items():
            body = private_embed(evs, 1, "en-US", {}).description or ""
            want = "\n".join(line for line in (render_event(e, "en-US", {}) for e in evs) if line)
            if body != want[:4096]:
                problems.append(f"{seed} step {n} seat {s}: report out of the engine's order")
    return problems, seen


def test_every_seats_report_tells_its_night_as_it_happened() -> None:
    problems: list[str] = []
    seen: set[str] = set()
    for i in range(GAMES):
        found, kinds = story_problems(f"story:{i}")
        problems += found
        seen |= kinds
    assert problems == []
    # The games reach the stories this checks: blows, wounds, deaths, saves, lost orders.
    assert {"DamageTaken", "WoundedNow", "YouDied", "Recovered", "OrdersNotDone"} <= seen
