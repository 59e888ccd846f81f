"""HTTP plumbing shared by every REST route.

One middleware applies, in Discord's order, the cross-cutting behaviour a
bot depends on: bot-token authentication (401), injected server faults,
rate limiting (429 with the exact headers discord.py expects) and error
rendering.  Every request, refused or not, is logged in the recorder.
Handlers only deal with their resource.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, web

from .errors import ApiError, not_found, unauthorized
from .messages import UploadedFile
from .recorder import RequestRecord

if TYPE_CHECKING:
    from .context import SandboxContext

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
CTX_KEY: web.AppKey[SandboxContext] = web.AppKey("sandbox_ctx")
RECORD_KEY: web.RequestKey[RequestRecord] = web.RequestKey("sandbox_record", RequestRecord)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_FILE_FIELD = re.compile(r"^files?\[?(\d*)\]?$")
_SERVER_ERRORS = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with ``Content-Type`` exactly ``application/json``.

    discord.py compares the header verbatim, so aiohttp's default
    ``; charset=utf-8`` suffix would make it treat bodies as plain text.
    """
    body = json.dumps(data, ensure_ascii=False).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def public(handler: Handler) -> Handler:
    """Marks routes Discord serves without bot auth (webhooks, interaction callbacks)."""
    handler.sandbox_public = True  # type: ignore[attr-defined]
    return handler


def ctx_of(request: web.Request) -> SandboxContext:
    return request.app[CTX_KEY]


def snowflake(request: web.Request, name: str) -> int:
    """Path parameters that are not numeric are unknown resources on Discord."""
    try:
        return int(request.match_info[name])
    except ValueError:
        raise not_found() from None


async def read_payload(request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
    """Parses a JSON body or a multipart body (``payload_json`` + ``files[n]``).

    The parsed payload is also stored on the request's log record.
    """
    payload: dict[str, Any] = {}
    files: list[UploadedFile] = []
    if request.content_type == "multipart/form-data":
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = _loads(await part.text())
                continue
            match = _FILE_FIELD.match(name)
            if match:
                data = await part.read(decode=False)
                index = int(match.group(1) or len(files))
                content_type = part.headers.get("Content-Type")
                files.append(
                    UploadedFile(index, part.filename or f"file{index}", bytes(data), content_type)
                )
    else:
        raw = await request.read()
        if raw:
            payload = _loads(raw.decode())
    record = request.get(RECORD_KEY)
    if record is not None:
        record.json = payload
        record.files = [f.filename for f in files]
    return payload, files


def _loads(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(value, dict | list):
        raise ApiError(400, 50109, "The request body contains invalid JSON.")
    return value  # type: ignore[return-value]


def _route_key(request: web.Request) -> str:
    resource = request.match_info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    return f"{request.method} {canonical.removeprefix(API_PREFIX)}"


@web.middleware
async def sandbox_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not request.path.startswith(API_PREFIX):
        return await handler(request)
    ctx = ctx_of(request)
    route = _route_key(request)
    params = dict(request.match_info)
    record = RequestRecord(request.method, request.path, route, params)
    if "X-Audit-Log-Reason" in request.headers:
        record.audit_reason = unquote(request.headers["X-Audit-Log-Reason"])
    request[RECORD_KEY] = record
    headers: dict[str, str] = {"Via": "1.1 google"}
    with ctx.recorder.answering():
        try:
            response = await _guarded(request, handler, ctx, route, params, record, headers)
        except ApiError as exc:
            response = _error_response(exc, record)
        except web.HTTPException as exc:  # e.g. body too large while reading
            code = 40005 if exc.status == 413 else 0
            response = _error_response(
                ApiError(exc.status, code, f"{exc.status}: {exc.reason}"), record
            )
        except Exception as exc:
            # An emulator bug: make it loud for tests instead of a silent retry storm.
            _log.exception("sandbox handler crashed on %s %s", request.method, request.path)
            ctx.recorder.server_errors.append(exc)
            response = _error_response(ApiError(500, 0, "500: Internal Server Error"), record)
    for key, value in headers.items():
        response.headers[key] = value
    record.status = response.status
    ctx.recorder.log_request(record)
    return response


def _error_response(exc: ApiError, record: RequestRecord) -> web.Response:
    record.error_code = exc.code
    record.response = exc.to_body()
    return json_response(exc.to_body(), exc.status)


async def _guarded(
    request: web.Request,
    handler: Handler,
    ctx: SandboxContext,
    route: str,
    params: dict[str, str],
    record: RequestRecord,
    headers: dict[str, str],
) -> web.StreamResponse:
    """Order: injected faults (they come from the edge), rate limit, route, auth, handler."""
    fault = ctx.limiter.take_fault(route)
    if fault is not None:
        raise ApiError(fault, 0, _SERVER_ERRORS.get(fault, f"{fault}: Injected failure"))
    is_public = getattr(handler, "sandbox_public", False)
    decision = ctx.limiter.check(route, params, count_global=not is_public)
    headers.update(decision.headers)
    if not decision.allowed:
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(decision.retry_after, 3),
            "global": decision.is_global,
            "code": 0,
        }
        record.response = body
        return json_response(body, 429)
    if request.match_info.http_exception is not None:
        exc = request.match_info.http_exception
        raise ApiError(exc.status, 0, f"{exc.status}: {exc.reason}")
    if not is_public and request.headers.get("Authorization") != f"Bot {ctx.config.token}":
        raise unauthorized()
    response = await handler(request)
    raw = getattr(response, "body", None)
    if isinstance(raw, bytes) and response.headers.get("Content-Type") == "application/json":
        record.response = json.loads(raw)
    return response


def api_routes(app: web.Application, routes: list[tuple[str, str, Handler]]) -> None:
    for method, path, handler in routes:
        app.router.add_route(method, API_PREFIX + path, handler)
