"""Receipts say what changed (issue 34): added, replaced, withdrawn, changed or the
same, in a title that matches the body, which lists everything of the kind now sent."""

from __future__ import annotations

import engine
from bot.core.advance import advance_phase
from bot.db.session import Database
from bot.features.play.commands import AddAction, AddGuess, SendGrail, SendSubmission, handle
from engine.values import FACTIONS
from tests.service.helpers import current_state, started, user


# -- receipts --------------------------------------------------------------------------------
def guesses_for(state: engine.GameState) -> tuple[int, list[engine.Guess]]:
    """A seat that may send two guesses together, the two (about two other seats) and a
    third that replaces the first (same seat and kind, another value)."""
    values = {"trait": [t.value for t in engine.Trait], "faction": [f.value for f in FACTIONS], "class": list(engine.catalogue())}
    for p in state.players:
        for slot in engine.class_spec(p.class_id).identify:
            options = list(slot.values or values[slot.what])
            if slot.count >= 2 and len(options) >= 2:
                x, y = [q.seat for q in state.players if q.seat != p.seat][:2]
                return p.seat, [engine.Guess(x, slot.what, options[0]), engine.Guess(y, slot.what, options[0]), engine.Guess(x, slot.what, options[1])]
    raise AssertionError("no seat may send two guesses")


async def test_receipts_say_what_changed_and_the_title_matches_the_body(db: Database) -> None:
    from bot.features.play.look import receipt_embed

    # a Cleric and a Sorcerer: two guesses a night
    game_id = await started(db, 7, lineup="warrior,monk,cleric/barbarian,wizard/barbarian,sorcerer", max_players=7)
    state = await current_state(db, game_id)
    seat, (a, b, c) = guesses_for(state)
    me, other = user(seat).id, next(q.seat for q in state.players if q.seat not in (seat, a.target, b.target))
    first = await handle(db, SendGrail(42), me, game_id=game_id)
    again = await handle(db, SendGrail(57), me, game_id=game_id)
    same = await handle(db, SendGrail(57), me, game_id=game_id)
    await advance_phase(db, game_id)
    one = await handle(db, AddGuess(a.target, (a.what, a.value)), me, game_id=game_id)
    two = await handle(db, AddGuess(b.target, (b.what, b.value)), me, game_id=game_id)
    swapped = await handle(db, AddGuess(c.target, (c.what, c.value)), me, game_id=game_id)
    attack = await handle(db, AddAction("attack", (other,)), me, game_id=game_id)
    passed = await handle(db, SendSubmission(engine.Orders()), me, game_id=game_id)
    names = {p.seat: p.name for p in state.players}
    seen = {}
    for loc in ("en-US", "zh-CN"):
        for label, r in (("first", first), ("again", again), ("same", same), ("one", one), ("two", two), ("swapped", swapped), ("attack", attack), ("passed", passed)):
            e = receipt_embed(r, names, state.player(seat).class_id, loc)
            seen[label, loc] = (e.title or "", e.description or "")
            print(label, "|", e.title, "|", (e.description or "").replace("\n", " / "))
    assert seen["first", "en-US"][0] == "✅ Grail number received"
    assert seen["again", "en-US"][0] == "✅ Grail number changed (was 42)" and "57" in seen["again", "en-US"][1]
    assert seen["same", "en-US"][0] == "✅ Grail number: the same as before, nothing changed"
    assert seen["one", "en-US"][0] == "✅ Identifications received"
    # The second identification is added, not a replacement: both are listed under it.
    assert seen["two", "en-US"][0] == "✅ Identifications: 1 added (2 in all)"
    assert len(seen["two", "en-US"][1].splitlines()) == 2
    assert seen["swapped", "en-US"][0] == "✅ Identifications: 1 replaced (2 in all)"
    assert len(seen["swapped", "en-US"][1].splitlines()) == 2
    assert seen["attack", "en-US"][0] == "✅ Night orders received"
    assert seen["passed", "en-US"][0] == "✅ Night orders: what you sent before is withdrawn, nothing tonight"
    assert seen["two", "zh-CN"][0] == "✅ 指认：新增1条（共2条）"
    assert seen["swapped", "zh-CN"][0] == "✅ 指认：替换了1条（共2条）"
    for (label, loc), (title, _) in seen.items():
        assert "replaces what you sent before" not in title and "替换之前的提交" not in title, (label, loc)


def test_a_withdrawn_piece_is_counted_as_withdrawn() -> None:
    from bot.features.play.look import receipt_change

    before = {"kind": "identify", "guesses": [{"target": 2, "what": "trait", "value": "holy"}, {"target": 3, "what": "trait", "value": "holy"}]}
    after = {"kind": "identify", "guesses": [{"target": 3, "what": "trait", "value": "holy"}]}
    assert receipt_change("identify", before, after) == ("withdrawn", {"count": 1, "total": 1})
    assert receipt_change("orders", {"actions": [{"skill": "attack", "targets": [2]}]}, {"actions": [{"skill": "attack", "targets": [2]}], "toggles": ["x"]}) == ("added", {"count": 1, "total": 2})
