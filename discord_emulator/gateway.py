"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatches.

A :class:`Session` outlives its websocket :class:`Connection` so that a bot
whose socket drops can RESUME and receive every dispatch it missed, in
sequence order, exactly like Discord.  Transport compression
(``compress=zlib-stream``, discord.py's default) keeps one zlib stream per
connection, each frame ending with a Z_SYNC_FLUSH marker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .context import SandboxContext
    from .state import Guild

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
# Privileged intents must be switched on in the developer portal first.
PRIVILEGED_INTENTS = {
    "members": INTENT_GUILD_MEMBERS,
    "presences": INTENT_GUILD_PRESENCES,
    "message_content": INTENT_MESSAGE_CONTENT,
}
PRIVILEGED_MASK = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
ALL_INTENTS = (1 << 26) - 1
BUFFER_SIZE = 2000

Transform = Callable[[dict[str, Any], int], dict[str, Any]]


def _dumps(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


@dataclass
class ConnectionInfo:
    """What a test can learn about each websocket the bot opened."""

    path: str
    compress: str | None
    identified: bool = False
    resumed: bool = False
    replayed: int = 0
    invalidated: bool = False
    close_code: int | None = None


class Connection:
    """One websocket; frames go through a queue so dispatch never blocks callers."""

    def __init__(
        self, ws: web.WebSocketResponse, request: web.Request, info: ConnectionInfo
    ) -> None:
        self.ws = ws
        self.request = request
        self.info = info
        self.session: Session | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._zlib = zlib.compressobj() if info.compress == "zlib-stream" else None
        self.last_heartbeat = asyncio.get_running_loop().time()
        self.writer = asyncio.create_task(self._write_loop())

    def send(self, payload: dict[str, Any] | str) -> None:
        self.queue.put_nowait(payload if isinstance(payload, str) else _dumps(payload))

    async def _write_loop(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None or self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(frame.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int, reason: str = "") -> None:
        self.info.close_code = code
        self.queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer
        await self.ws.close(code=code, message=reason.encode())


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int]
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BUFFER_SIZE))
    connection: Connection | None = None
    disconnected_at: float | None = None
    invalid: bool = False

    def handles(self, guild_id: int | None) -> bool:
        """Discord's rule (https://discord.com/developers/docs/events/gateway#sharding):
        a server's events go to shard ``(guild_id >> 22) % num_shards``, DMs to shard 0."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id


class GatewayClose(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Gateway:
    def __init__(self, ctx: SandboxContext) -> None:
        self._ctx = ctx
        self.sessions: dict[str, Session] = {}
        self.connections: list[ConnectionInfo] = []
        self._live: set[Connection] = set()
        self.presence: dict[str, Any] | None = None
        self._background: set[asyncio.Task[None]] = set()

    # -- websocket endpoint --------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        info = ConnectionInfo(path=request.path, compress=request.query.get("compress"))
        self.connections.append(info)
        conn = Connection(ws, request, info)
        self._live.add(conn)
        watchdog = asyncio.create_task(self._watchdog(conn))
        try:
            self._check_query(request)
            conn.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": int(self._ctx.config.heartbeat_interval * 1000)},
                }
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    raise GatewayClose(4002, "Decode error")
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    raise GatewayClose(4002, "Decode error") from None
                self._handle_op(conn, payload)
        except GatewayClose as exc:
            await conn.close(exc.code, exc.reason)
        finally:
            watchdog.cancel()
            if (
                conn.session is not None
                and conn.info.close_code is None
                and ws.close_code in (1000, 1001)
            ):
                # A client closing with 1000/1001 ends its session (no RESUME), as on Discord.
                conn.session.invalid = True
            self._detach(conn)
            self._live.discard(conn)
            conn.queue.put_nowait(None)
            self._ctx.notifier.notify()
        return ws

    def _check_query(self, request: web.Request) -> None:
        if request.query.get("v", "10") not in ("9", "10"):
            raise GatewayClose(4012, "Invalid API version")
        if request.query.get("encoding", "json") != "json":
            raise GatewayClose(4002, "The sandbox only speaks json encoding")
        if request.query.get("compress") not in (None, "zlib-stream"):
            raise GatewayClose(4000, "Unsupported transport compression")

    async def _watchdog(self, conn: Connection) -> None:
        """Closes zombie connections that stopped heartbeating (4009-like)."""
        interval = self._ctx.config.heartbeat_interval
        limit = max(interval * 3, 5.0)
        loop = asyncio.get_running_loop()
        while not conn.ws.closed:
            await asyncio.sleep(interval)
            if loop.time() - conn.last_heartbeat > limit:
                await conn.close(4009, "Session timed out")
                return

    def _handle_op(self, conn: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == 1:
            conn.last_heartbeat = asyncio.get_running_loop().time()
            conn.send({"op": 11})
        elif op == 2:
            self._identify(conn, data or {})
        elif op == 6:
            self._resume(conn, data or {})
        elif conn.session is None:
            raise GatewayClose(4003, "Not authenticated")
        elif op == 3:
            self.presence = data
        elif op == 8:
            self._request_members(conn, data or {})
        elif op == 4:
            pass  # voice state updates are accepted and ignored
        else:
            raise GatewayClose(4001, "Unknown opcode")

    # -- identify / resume ---------------------------------------------
    def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            raise GatewayClose(4005, "Already authenticated")
        if data.get("token") != self._ctx.config.token:
            raise GatewayClose(4004, "Authentication failed")
        intents = data.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS:
            raise GatewayClose(4013, "Invalid intent(s)")
        if intents & PRIVILEGED_MASK & ~self._ctx.config.privileged_mask:
            raise GatewayClose(4014, "Disallowed intent(s)")
        shard = tuple(data.get("shard") or (0, 1))
        if len(shard) != 2 or not 0 <= shard[0] < shard[1]:
            raise GatewayClose(4010, "Invalid shard")
        session = Session(id=secrets.token_hex(16), intents=intents, shard=(shard[0], shard[1]))
        guilds = [g for g in self._ctx.world.bot_guilds() if session.handles(g.id)]
        if len(guilds) > self._ctx.config.max_guilds_per_shard:
            raise GatewayClose(4011, "Sharding required")
        self.sessions[session.id] = session
        self._attach(conn, session)
        conn.info.identified = True
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self._ctx.bot.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": f"{self._ws_base()}/resume",
            "application": {
                "id": str(self._ctx.application.id),
                "flags": self._ctx.application.flags,
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["sandbox"],
            "_trace": ["discord-sandbox"],
        }
        if data.get("shard") is not None:
            ready["shard"] = list(session.shard)
        self._push(session, "READY", ready)
        if intents & INTENT_GUILDS:
            for guild in (g for g in guilds if not g.outage):
                self._push(
                    session, "GUILD_CREATE", self.guild_create_payload(guild, session.intents)
                )
        self._ctx.notifier.notify()

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            raise GatewayClose(4005, "Already authenticated")
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self._ctx.config.token:
            raise GatewayClose(4004, "Authentication failed")
        seq = data.get("seq") or 0
        if session is None or not self._resumable(session):
            conn.info.invalidated = True
            conn.send({"op": 9, "d": False})
            return
        if seq > session.seq:
            raise GatewayClose(4007, "Invalid seq")
        if session.buffer and session.buffer[0][0] > seq + 1:
            conn.info.invalidated = True
            conn.send({"op": 9, "d": False})  # too far behind to replay everything
            return
        old = session.connection
        if old is not None:
            self._detach(old)
            task = asyncio.create_task(old.close(4000, "Session resumed elsewhere"))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        self._attach(conn, session, replay_after=seq)
        conn.info.resumed = True
        self._push(session, "RESUMED", {"_trace": ["discord-sandbox"]})
        self._ctx.notifier.notify()

    def _resumable(self, session: Session) -> bool:
        if session.invalid:
            return False
        if session.disconnected_at is None:
            return True
        return self._ctx.clock.now() - session.disconnected_at <= self._ctx.config.session_ttl

    def _attach(self, conn: Connection, session: Session, replay_after: int | None = None) -> None:
        conn.session = session
        session.connection = conn
        session.disconnected_at = None
        if replay_after is not None:
            for seq, frame in session.buffer:
                if seq > replay_after:
                    conn.send(frame)
                    conn.info.replayed += 1

    def _detach(self, conn: Connection) -> None:
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            session.disconnected_at = self._ctx.clock.now()

    def _request_members(self, conn: Connection, data: dict[str, Any]) -> None:
        assert conn.session is not None
        guild = self._ctx.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        members = list(guild.members.values())
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
        elif not conn.session.intents & INTENT_GUILD_MEMBERS:
            raise GatewayClose(4013, "Requesting all members needs the GUILD_MEMBERS intent")
        else:
            query = str(data.get("query") or "").lower()
            members = [m for m in members if m.user.username.lower().startswith(query)]
            if data.get("limit"):
                members = members[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self._push(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- dispatching ---------------------------------------------------
    def _push(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = _dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, frame))
        if session.connection is not None:
            session.connection.send(frame)

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        intent: int | None = None,
        transform: Transform | None = None,
    ) -> int:
        """Queues ``event`` for every resumable session whose shard and intents match.

        Sessions that are momentarily disconnected still buffer the event, to be
        replayed on RESUME.  Returns how many sessions received it.
        """
        if event != "INTERACTION_CREATE" and not self._bot_present(guild_id):
            # A server the bot is not in (a user-installed app used there) sends it
            # nothing over the gateway; only the interactions themselves reach it.
            return 0
        sent = 0
        for session in self.sessions.values():
            if not self._resumable(session) or not session.handles(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            self._push(session, event, transform(data, session.intents) if transform else data)
            sent += 1
        return sent

    def _bot_present(self, guild_id: int | None) -> bool:
        world = self._ctx.world
        guild = world.guilds.get(guild_id) if guild_id is not None else None
        return guild is None or world.bot.id in guild.members

    def dispatch_guild_create(self, guild: Guild) -> None:
        """GUILD_CREATE is tailored per session (member list depends on intents)."""
        for session in self.sessions.values():
            if (
                self._resumable(session)
                and session.handles(guild.id)
                and session.intents & INTENT_GUILDS
            ):
                self._push(
                    session, "GUILD_CREATE", self.guild_create_payload(guild, session.intents)
                )

    def has_session(self) -> bool:
        return any(self._resumable(s) for s in self.sessions.values())

    def guild_create_payload(self, guild: Guild, intents: int) -> dict[str, Any]:
        """GUILD_CREATE: full guild with channels, roles and (some) members.

        Without the privileged GUILD_MEMBERS intent Discord only sends the bot
        itself (and voice members); the owner is included for convenience.
        """
        world = self._ctx.world
        if intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            members = [
                m for uid, m in guild.members.items() if uid in (world.bot.id, guild.owner_id)
            ]
        payload = guild.to_payload()
        payload.update(
            joined_at=(
                guild.members[world.bot.id].joined_at.isoformat()
                if world.bot.id in guild.members
                else None
            ),
            large=len(guild.members) >= 250,
            unavailable=False,
            member_count=len(guild.members),
            channels=[c.to_payload() for c in guild.channels.values()],
            members=[m.to_payload() for m in members],
            threads=[],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return payload

    # -- test controls -------------------------------------------------
    def _ws_base(self) -> str:
        return self._ctx.base_url.replace("http://", "ws://", 1)

    async def drop_connections(self, code: int = 4000, *, abrupt: bool = False) -> int:
        """Closes every live socket while keeping sessions resumable."""
        conns = list(self._live)
        for conn in conns:
            self._detach(conn)
            if abrupt and conn.request.transport is not None:
                conn.info.close_code = None
                conn.request.transport.close()
            else:
                await conn.close(code, "Dropped by sandbox")
        return len(conns)

    def request_reconnect(self) -> None:
        """Sends opcode 7; the client should reconnect and RESUME."""
        for conn in self._live:
            conn.send({"op": 7, "d": None})

    def invalidate_sessions(self, resumable: bool = False) -> None:
        """Sends opcode 9; non-resumable invalidation forces a fresh IDENTIFY."""
        for conn in list(self._live):
            if conn.session is not None and not resumable:
                conn.session.invalid = True
            conn.send({"op": 9, "d": resumable})

    async def close_all(self) -> None:
        for conn in list(self._live):
            with contextlib.suppress(Exception):
                await conn.close(1001, "Sandbox shutting down")
