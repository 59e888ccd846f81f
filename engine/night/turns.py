"""Each seat's own turn in the story of its night: the orders it gave, told at the point
of the night where its turn came, in the engine's order with the blows that reached it
and what its orders brought it (a grail taken, a heal, a skill's news).

The engine tells a seat only what the rules let it learn (engine.events); its turn is
read from the night's audit events and told as ``YourTurn``, a private event of the
seat's own. What it tells, and what it never tells:

- the orders as the player gave them: a turn whose orders a state the player is not
  told of voided (R9: held, grappled) or a Bard's Suggestion rewrote is told as any
  other, so that neither the hold nor the Bard shows;
- no outcome the rules keep from it: not whether an attack hit (R11), not a save, a
  state put on another, a heal of another or a failed steal. What an order brought
  that the rules do tell (a grail taken, its own HP, a skill's own news) is already
  the engine's private news, and follows the turn in the night's order;
- nothing for orders told not to have happened (``OrdersNotDone``: the seat's death or
  wound before its turn, nothing left to pay with, no grail), for the orders of a
  grappler that did not let go (void, as its hold's news told it), nor for letting go of
  a hold (a free action done before the turn's orders)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.events import Audience, Event
from engine.submissions import Action, Orders, Submission, submission_from_dict

# Audit events of the seat's own turn (``seat``: the one whose turn it is): its orders
# carried out, found void, unpaid or a grail skill fizzled, or breaking free of a hold.
TURN_KINDS = frozenset({"ActionTaken", "OrdersVoid", "ActionLost", "SkillFizzled", "GrappleBroken", "GrappleReleased"})


def turn_data(class_id: str | None, action: Action, *, first: bool) -> dict[str, object]:
    """A ``YourTurn`` event's data: one order as given (no ``target`` or ``seat`` key: the
    seat's own class beside another seat would read as news of that seat)."""
    return {"class_id": class_id, "skill": action.skill, "targets": list(action.targets), "amount": action.amount, "first": first}


def last_orders(submissions: Iterable[Submission]) -> Orders | None:
    """The orders the engine resolves from one seat's submissions: the last sent."""
    orders = [s for s in submissions if isinstance(s, Orders)]
    return orders[-1] if orders else None


def with_turns(
    events: list[Event],
    submissions: Mapping[int, Iterable[Submission]],
    class_of: Mapping[int, str],
) -> list[Event]:
    """``events`` of a night with each seat's ``YourTurn`` events put in at its turn:
    the first order before the first event of its turn, each next order before the next
    order carried out (or right after the one before, when the turn carried out fewer)."""
    dropped = {e.data.get("seat") for e in events if e.kind == "SubmissionDropped" and e.data.get("submission") == "orders"}
    inserts: dict[int, list[Event]] = {}
    for seat, subs in submissions.items():
        orders = last_orders(subs)
        if orders is None or seat in dropped:
            continue
        untold = Counter(
            skill
            for e in events
            if e.kind == "OrdersNotDone" and e.audience is Audience.PRIVATE and e.seat == seat
            for skill in e.data.get("skills", ())
        )
        told: list[Action] = []
        for action in orders.actions:
            if action.skill == "release":
                continue
            if untold[action.skill]:
                untold[action.skill] -= 1
                continue
            told.append(action)
        if not told:
            continue
        mine = [i for i, e in enumerate(events) if e.audience is Audience.AUDIT and e.kind in TURN_KINDS and e.data.get("seat") == seat]
        if not mine:
            continue  # no turn came (the engine tells why, or the rules keep it)
        if any(events[i].kind == "OrdersVoid" and events[i].data.get("reason") == "grappling" for i in mine):
            continue  # a grappler that did not let go: its orders are void, as it was told
        done = [i for i in mine if events[i].kind == "ActionTaken"]
        at = mine[0]
        for n, action in enumerate(told):
            if n < len(done):
                at = max(at, done[n])
            turn = Event("YourTurn", Audience.PRIVATE, seat, turn_data(class_of.get(seat), action, first=n == 0))
            inserts.setdefault(at, []).append(turn)
    out: list[Event] = []
    for i, e in enumerate(events):
        out += inserts.get(i, [])
        out.append(e)
    return out


def logged_turns(
    kind: str,
    phase: str,
    events: list[dict[str, Any]],
    inputs: Mapping[str, Any],
    state: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """A step of the game log's events (dicts, as stored) with the turns its advance
    told (:func:`with_turns`), from its stored inputs (the submissions by seat) and
    stored state: a recap and the replay tell a seat what its reports told it. Any
    other step's events as they are."""
    if kind != "advance" or phase != "dusk":
        return events
    submissions = {int(seat): [submission_from_dict(p) for p in subs] for seat, subs in (inputs.get("submissions") or {}).items()}
    class_of = {int(p["seat"]): str(p["class_id"]) for p in state.get("players", [])}
    return [e.to_dict() for e in with_turns([Event.from_dict(e) for e in events], submissions, class_of)]
