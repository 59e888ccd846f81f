"""Every seat's own turn is told in the story of its night (engine.night.turns):
over many seeded games played by the baseline AI, each order a seat gave appears in its
report once, as given, in the order given, at the point of the night where its turn
came (after the blows that reached it before, before those after), followed by what the
rules let it learn of it (a grail taken, a hold); never an outcome the rules keep from
it (R11: an attacker is not told whether it hit), and as any other turn where a state
it is not told of voided its orders or a Bard's Suggestion rewrote them."""

from __future__ import annotations

from typing import Any

from bot.ai.runner import play_game
from bot.render.posts import private_embed
from engine import Audience, Event, new_game
from engine.night.turns import TURN_KINDS, last_orders, with_turns

GAMES = 30  # enough for a successful Suggestion (game 28 under the fair deal)
PLAYERS = 12
SECRET = {"roll", "need", "hit", "success", "chance", "target", "seat", "faction", "trait"}


def own_turn(events: list[Event], seat: int) -> int | None:
    """Where the engine put the seat's turn: its first turn event, if any."""
    return next((i for i, e in enumerate(events) if e.audience is Audience.AUDIT and e.kind in TURN_KINDS and e.data.get("seat") == seat), None)


def turn_problems(seed: str, n: int, subs: dict[int, list[Any]], events: list[Event], class_of: dict[int, str], seen: set[str]) -> list[str]:
    told = with_turns(events, subs, class_of)
    assert [e for e in told if e.kind != "YourTurn"] == events  # the engine's events, untouched and in order
    problems: list[str] = []
    for seat, sent in subs.items():
        orders = last_orders(sent)
        if orders is None:
            continue
        where = f"{seed} step {n} seat {seat}"
        mine = [e for e in told if e.audience is Audience.PRIVATE and e.seat == seat]
        turns = [e for e in mine if e.kind == "YourTurn"]
        for e in turns:
            if set(e.data) & SECRET:
                problems.append(f"{where}: {e.data} tells more than the orders")
        undone = [s for e in mine if e.kind == "OrdersNotDone" for s in e.data["skills"]]
        given = [a.skill for a in orders.actions if a.skill != "release"]
        for s in undone:
            if s in given:
                given.remove(s)
        at = own_turn(events, seat)
        void_hold = any(e.kind == "OrdersVoid" and e.data.get("seat") == seat and e.data.get("reason") == "grappling" for e in events)
        dropped = any(e.kind == "SubmissionDropped" and e.data.get("seat") == seat and e.data.get("submission") == "orders" for e in events)
        if at is None or void_hold or dropped:
            if turns:
                problems.append(f"{where}: a turn told where none came or its orders were void or dropped")
            continue
        # Every order not told undone, once, as given, in the order given.
        if [e.data["skill"] for e in turns] != given:
            problems.append(f"{where}: told {[e.data['skill'] for e in turns]}, gave {given}")
            continue
        as_given = [(a.skill, list(a.targets), a.amount) for a in orders.actions if a.skill != "release"]
        if any((e.data["skill"], e.data["targets"], e.data["amount"]) not in as_given for e in turns):
            problems.append(f"{where}: an order told otherwise than given")
        if any(e.kind == "OrdersVoid" and e.data.get("seat") == seat for e in events):
            seen.add("void")
        if any(e.kind == "SpellCast" and e.data.get("why") == "suggestion" and e.data["target"] == seat and e.data["success"] for e in events):
            seen.add("suggestion")
        # At its turn: after the seat's news from before it, before its news from after.
        first = told.index(turns[0])
        before = [e for e in events[:at] if e.audience is Audience.PRIVATE and e.seat == seat]
        if [e for e in told[:first] if e.audience is Audience.PRIVATE and e.seat == seat] != before:
            problems.append(f"{where}: its turn told out of the night's order")
        # What the rules let it learn of its turn (a grail stolen, a hold) follows its orders;
        # a steal by a counter-blow in another's turn comes where that turn did.
        after = [e for e in events[at:] if e.audience is Audience.PRIVATE and e.seat == seat]
        if [e for e in told[first:] if e.audience is Audience.PRIVATE and e.seat == seat and e.kind != "YourTurn"] != after:
            problems.append(f"{where}: its news after its turn told out of order")
        seen |= {e.kind for e in after if e.kind == "GrappleHeld" or (e.kind == "GrailTaken" and not e.data.get("from_body"))}
        # The report reads it, in both languages, in the same order.
        for locale in ("en-US", "zh-CN"):
            body = private_embed(mine, 1, locale, {}).description or ""
            lines = body.split("\n")
            marks = [i for i, line in enumerate(lines) if line.startswith("▶️")]
            if len(marks) != len(turns):
                problems.append(f"{where} {locale}: {len(turns)} orders, {len(marks)} lines")
        seen.add("turn")
    return problems


def test_every_seats_own_orders_are_told_at_its_turn() -> None:
    problems: list[str] = []
    seen: set[str] = set()
    for i in range(GAMES):
        seed = f"turns:{i}"
        state = new_game([f"P{k}" for k in range(1, PLAYERS + 1)], seed)
        class_of = {p.seat: p.class_id for p in state.players}
        record: list[dict[int, list[Any]]] = []
        steps: list[list[Event]] = []
        play_game(seed, start=state, record=record, steps=steps)
        for n, (subs, events) in enumerate(zip(record, steps, strict=True)):
            problems += turn_problems(seed, n, subs, events, class_of, seen)
    assert problems == []
    # The games reach the turns this checks: told orders, void and rewritten ones, a steal, a hold.
    assert {"turn", "void", "suggestion", "GrailTaken", "GrappleHeld"} <= seen, seen
