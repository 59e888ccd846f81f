"""Any submission, well-formed or not, from anyone: either stored exactly as the receipt
says, or refused with a typed ServiceError and nothing written."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bot.core.advance import advance_phase
from bot.core.errors import ServiceError
from bot.db.models import GameStep, OutboxMessage, Submission
from bot.db.session import Database
from bot.features.play.commands import SendSubmission, handle
from bot.render.refusals import service_refusal
from tests.conftest import FakeClock, wipe
from tests.service.helpers import started, user

seats = st.integers(min_value=-1, max_value=9)
skills = st.sampled_from(["attack", "cleave", "whirlwind_attack", "grapple", "heal", "nope", ""])
payloads = st.one_of(
    st.fixed_dictionaries({"kind": st.just("grail"), "number": st.integers(-5, 120)}),
    st.fixed_dictionaries({"kind": st.just("vote"), "target": seats}),
    st.fixed_dictionaries(
        {
            "kind": st.just("identify"),
            "guesses": st.lists(
                st.fixed_dictionaries(
                    {
                        "target": seats,
                        "what": st.sampled_from(["trait", "class", "faction", "mood"]),
                        "value": st.sampled_from(["combat", "holy", "warrior", "lawful", "chaotic", "x"]),
                    }
                ),
                max_size=4,
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "kind": st.just("orders"),
            "actions": st.lists(
                st.fixed_dictionaries({"skill": skills, "targets": st.lists(seats, max_size=3)}),
                max_size=3,
            ),
        }
    ),
    st.dictionaries(st.sampled_from(["kind", "number", "target"]), st.integers(-2, 3) | st.text(max_size=3)),
)


async def everything(db: Database) -> list[Any]:
    async with db.read() as s:
        subs = (await s.execute(select(Submission).order_by(Submission.id))).scalars().all()
        n_out = len((await s.execute(select(OutboxMessage.id))).all())
        n_steps = len((await s.execute(select(GameStep.id))).all())
        return [[(x.seat, x.kind, x.payload, x.revision) for x in subs], n_out, n_steps]


def on_db(url: str, fn: Callable[[Database], Awaitable[Any]]) -> Any:
    """Run ``fn`` on a fresh handle in its own event loop (hypothesis drives a sync test)."""

    async def go() -> Any:
        db = Database(url, clock=FakeClock())
        try:
            return await fn(db)
        finally:
            await db.dispose()

    return asyncio.run(go())


def test_any_submission_is_stored_or_refused_cleanly(db_url: str) -> None:
    async def setup(db: Database) -> int:
        await wipe(db)
        game_id = await started(db, 6, seed="property-seed")
        await advance_phase(db, game_id)  # to Dusk: identifications and orders are in play
        return game_id

    game_id = on_db(db_url, setup)
    fates = {"stored": 0, "refused": 0}

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(who=st.integers(1, 7), payload=payloads)
    def one(who: int, payload: dict[str, Any]) -> None:
        async def check(db: Database) -> None:
            before = await everything(db)
            try:
                receipt = await handle(db, SendSubmission(payload), user(who).id, game_id=game_id)
            except ServiceError as exc:
                assert exc.key and service_refusal(exc, "zh-CN")
                assert await everything(db) == before
                fates["refused"] += 1
                return
            after = await everything(db)
            row = next(r for r in after[0] if r[0] == receipt.seat and r[1] == receipt.kind)
            assert row[2] == receipt.submission and row[3] == receipt.revision
            assert after[1:] == before[1:]
            fates["stored"] += 1

        on_db(db_url, check)

    one()
    assert fates["stored"] and fates["refused"], fates
