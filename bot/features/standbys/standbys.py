"""The standby list: members waiting to take a seat whose holder goes quiet.

A member joins a game's list in the lobby or while it runs (``join_standby``), never if
they are in that game, in another live game, or held one of its seats before. When the
absence policy, or a moderator's ``/mod replace`` with nobody named, frees a seat, it is
offered to the first standby still eligible, by DM with an Accept button, until the
offer expires (the game's ``offer_seconds``); then the next is asked (``expire_due_offers``,
run by the scheduler). Accepting hands the seat over through the same path as
``/mod replace`` (``moderation.hand_over_seat``): the table sees the usual
replacement line and nothing else. An offer of the absence policy that finds nobody
left removes the seat; a moderator's is reported back to the moderator."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import table
from bot.core.deadlines import DueReport, DueWork, due_work
from bot.core.errors import GameFinishedError, NewcomerBusyError
from bot.core.messages import OffersExhausted, SeatOffered
from bot.core.policy import Action, Standing
from bot.core.table import Place, Table
from bot.core.types import GameInfo, StepResult, UserRef, check_id
from bot.db import repositories as repo
from bot.db.models import SeatOffer, Standby
from bot.db.repos import standbys as standbys_repo
from bot.db.session import Database
from bot.features.gallery import gallery
from bot.features.moderation.moderation import hand_over_seat, remove_seat
from bot.features.moderation.seats import check_seat_argument, held_seat
from bot.features.records.reliability import require_reliability
from bot.features.standbys.errors import (
    AlreadyStandbyError,
    NoStandbyError,
    NotStandbyError,
    OfferClosedError,
    OfferNotFoundError,
    OfferNotYoursError,
    StandbyFormerSeatError,
    StandbyInGameError,
)
from bot.features.standbys.queue import standby_list, waiting

LIVE = ("lobby", "running", "paused")


async def join_standby(db: Database, game_id: int, user: UserRef, standing: Standing) -> int:
    """Put ``user`` on the game's standby list (the lobby or a running or paused game),
    as one who can see its channel (``standing``, the access policy's ``stand_by``);
    how many are on it now. Below the game's ``min_reliability``: ReliabilityTooLowError
    (the seat the list waits for is one a reliable player should take)."""
    user = user.checked()
    async with table.at(db, Place(user, game_id=game_id, here=standing.of_user(user.id)), writing=True) as t:
        game, s, now = t.game, t.session, t.now
        await t.require(Action.STAND_BY)
        if game.status not in LIVE:
            raise GameFinishedError(game_id=game.id)
        row = await t.member(user.id)
        if row is not None and row.former_seat is not None:
            raise StandbyFormerSeatError(game_id=game.id, seat=row.former_seat)
        if row is not None and (row.seat is not None or row.status == "lobby"):
            raise StandbyInGameError(game_id=game.id)
        await gallery.refuse_spectator_seat(s, game, user.id)
        busy = await repo.live_game_place(s, user.id)
        if busy is not None:
            raise NewcomerBusyError(name=user.name, **busy)
        standby = await standbys_repo.standby_of(s, game.id, user.id)
        if standby is not None and standby.status in ("waiting", "asked"):
            raise AlreadyStandbyError(game_id=game.id)
        await require_reliability(s, game, t.settings, user.id)
        await repo.upsert_user(s, user.id, user.name, user.locale, now)
        if standby is None:
            standby = Standby(game_id=game.id, user_id=user.id, display_name=user.name, status="waiting", joined_at=now)
            s.add(standby)
        # Back on the list (after leaving it, or letting an offer pass): at its end.
        standby.status, standby.display_name, standby.joined_at = "waiting", user.name, now
        await s.flush()
        return len(await standby_list(s, game.id))


async def leave_standby(db: Database, game_id: int, user_id: int) -> GameInfo:
    """Take the caller off the list; an offer open to them is withdrawn and the next
    standby asked."""
    check_id(user_id, "user")
    async with table.of(db, game_id, writing=True) as t:
        s = t.session
        standby = await standbys_repo.standby_of(s, t.id, user_id)
        if standby is None or standby.status not in ("waiting", "asked"):
            raise NotStandbyError(game_id=t.id)
        standby.status = "left"
        for offer in await standbys_repo.open_offers(s, t.id, user_id=user_id):
            await _close_and_move_on(t, offer, "withdrawn")
        await s.flush()
        return await t.info()


async def offer_seat(db: Database, game_id: int, seat: int) -> str:
    """A moderator's ``/mod replace`` with nobody named: offer ``seat`` to the first
    eligible standby (NoStandbyError when there is none); the name of the one asked."""
    async with table.of(db, game_id, writing=True) as t:
        return await offer(t, seat)


async def offer(t: Table, seat: int) -> str:
    """``offer_seat`` on the game's table."""
    check_seat_argument(seat)
    await held_seat(t, seat)
    s = t.session
    if await open_offer_for(s, t.id, seat) is not None:
        raise NoStandbyError("error.offer_already_open", seat=seat)
    offered = await start_offers(t, seat, "moderator")
    if offered is None:
        raise NoStandbyError(game_id=t.id)
    await s.flush()
    standby = await standbys_repo.standby_of(s, t.id, offered.user_id)
    return standby.display_name if standby else str(offered.user_id)


async def offered_game(db: Database, offer_id: int) -> GameInfo:
    """The game an offer is of (OfferNotFoundError when there is no such offer)."""
    check_id(offer_id, "offer")
    async with db.read() as s:
        offer = await s.get(SeatOffer, offer_id)
        if offer is None:
            raise OfferNotFoundError()
        return await (await table.read(s, offer.game_id, db.now())).info()


async def accept_offer(db: Database, offer_id: int, user: UserRef, standing: Standing) -> StepResult:
    """The standby asked takes the seat, if the offer is still open and theirs, and they
    can still see the game's channel (``standing``, the access policy's ``take_seat``:
    they may have left the server since they joined the list)."""
    user = user.checked()
    check_id(offer_id, "offer")
    now = db.now()
    async with db.transaction() as s:
        offer = await s.get(SeatOffer, offer_id)
        if offer is None:
            raise OfferNotFoundError()
        t = await table.locked(s, offer.game_id, now)
        game = t.game
        await s.refresh(offer)  # as it stands under the game's lock
        if offer.user_id != user.id:
            raise OfferNotYoursError()
        if offer.status != "open" or offer.expires_at <= now:
            raise OfferClosedError(seat=offer.seat, game_id=game.id)
        if game.status not in ("running", "paused"):
            raise GameFinishedError(game_id=game.id)
        holder = (await t.holders()).get(offer.seat)
        if holder is None or holder.user_id != offer.holder_id:
            raise OfferClosedError(seat=offer.seat, game_id=game.id)  # the seat has gone, or changed hands
        offer.status, offer.closed_at = "accepted", now
        standby = await standbys_repo.standby_of(s, game.id, user.id)
        if standby is not None:
            standby.status = "seated"
        return await hand_over_seat(t, offer.seat, user, standing, reason=offer.reason)


async def expire_due_offers(db: Database) -> int:
    """Close every open offer whose time is up and ask the next standby (or apply the
    fallback); the number closed."""
    now = db.now()
    async with db.read() as s:
        due = await standbys_repo.due_offers(s, now)
    closed = 0
    for offer_id, game_id in due:
        async with db.transaction() as s:
            t = await table.locked(s, game_id, now)
            offer = await s.get(SeatOffer, offer_id)
            assert offer is not None
            await s.refresh(offer)
            if offer.status != "open" or offer.expires_at > now:
                continue  # someone else closed it meanwhile
            await _close_and_move_on(t, offer, "expired")
            closed += 1
    return closed


async def _expire(db: Database, held: Collection[int], report: DueReport) -> None:
    report.done["offers_closed"] = await expire_due_offers(db)


def next_offer_expiry() -> Any:
    """When the next open offer expires, as a scalar subquery for the scheduler's sleep
    (``deadlines.next_wakeup``): the repository's (``bot.db.repos.standbys``)."""
    return standbys_repo.next_expiry()


async def open_offer_for(s: AsyncSession, game_id: int, seat: int) -> SeatOffer | None:
    offers = await standbys_repo.open_offers(s, game_id, seat=seat)
    return offers[0] if offers else None


async def start_offers(t: Table, seat: int, reason: str) -> SeatOffer | None:
    """Offer ``seat`` to the first eligible standby (by DM, with the Accept button);
    None when nobody can be asked."""
    game, s, now = t.game, t.session, t.now
    holder = (await t.holders())[seat]
    for standby in await waiting(s, game.id, ("waiting",)):
        if await _eligible(t, standby):
            seconds = t.settings.offer_seconds
            offer = SeatOffer(
                game_id=game.id, seat=seat, user_id=standby.user_id, holder_id=holder.user_id, reason=reason, status="open",
                created_at=now, expires_at=now + timedelta(seconds=seconds),
            )  # fmt: skip
            s.add(offer)
            standby.status = "asked"
            await s.flush()
            mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase))
            mail.locales.update(await repo.user_locales(s, [standby.user_id]))
            mail.private(
                standby.user_id,
                SeatOffered(offer=offer.id, game=game.id, seat=seat, expires=offer.expires_at.isoformat(), channel=game.channel_id),
            )
            return offer
    return None


async def _close_and_move_on(t: Table, offer: SeatOffer, status: str) -> None:
    """Close ``offer`` (expired, withdrawn) and ask the next standby; when nobody is
    left: the absence policy removes the seat, a moderator's request is reported back."""
    game, s, now = t.game, t.session, t.now
    offer.status, offer.closed_at = status, now
    standby = await standbys_repo.standby_of(s, game.id, offer.user_id)
    if standby is not None and standby.status == "asked":
        standby.status = "passed"  # let it go by: off the list (they may join again)
    await s.flush()
    if game.status not in ("running", "paused"):
        return
    state = t.state
    holders = await t.holders()
    holder = holders.get(offer.seat)
    if not state.player(offer.seat).alive or holder is None or holder.user_id != offer.holder_id:
        return  # the seat has gone, or changed hands, meanwhile
    if await start_offers(t, offer.seat, offer.reason) is not None:
        return
    mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase))
    mail.locales.update(await repo.user_locales(s, [game.moderator_id]))
    removing = offer.reason == "absence" and game.status == "running"
    # An offer of the absence policy names a seat that missed: not for a moderator who
    # plays (bot.features.absence.absence). One they asked for themselves is theirs to hear of.
    if offer.reason != "absence" or not await t.has_played(game.moderator_id):
        exhausted = OffersExhausted(game=game.id, seat=offer.seat, name=holders[offer.seat].display_name, removed=removing)
        mail.private(game.moderator_id, exhausted)
    if removing:
        await remove_seat(t, offer.seat, reason="absence")


async def _eligible(t: Table, standby: Standby) -> bool:
    row = await t.member(standby.user_id)
    if row is not None and (row.seat is not None or row.former_seat is not None):
        return False
    return await repo.live_game_place(t.session, standby.user_id) is None



due_work(DueWork("offers_closed", 20, _expire, lambda held: [next_offer_expiry()]))
