"""Discord-shaped API errors.

Handlers raise :class:`ApiError`; the HTTP layer turns it into the JSON body
Discord uses (``{"message", "code", "errors"?}``) so discord.py raises the
same ``HTTPException``/``Forbidden``/``NotFound`` with the same ``.code`` and
``.text`` a bot would see in production.
"""

from __future__ import annotations

from typing import Any

# code -> (HTTP status, message) for the JSON error codes the emulator emits.
KNOWN_CODES: dict[int, tuple[int, str]] = {
    10002: (404, "Unknown Application"),
    10003: (404, "Unknown Channel"),
    10004: (404, "Unknown Guild"),
    10007: (404, "Unknown Member"),
    10008: (404, "Unknown Message"),
    10009: (404, "Unknown Overwrite"),
    10011: (404, "Unknown Role"),
    10013: (404, "Unknown User"),
    10015: (404, "Unknown Webhook"),
    10062: (404, "Unknown interaction"),
    10063: (404, "Unknown application command"),
    30013: (400, "Maximum number of guild channels reached (500)"),
    40005: (413, "Request entity too large"),
    40060: (400, "Interaction has already been acknowledged."),
    40094: (400, "This interaction has hit the maximum number of follow up messages"),
    50001: (403, "Missing Access"),
    50005: (403, "Cannot edit a message authored by another user"),
    50006: (400, "Cannot send an empty message"),
    50007: (403, "Cannot send messages to this user"),
    50013: (403, "Missing Permissions"),
    50027: (401, "Invalid Webhook Token"),
    50035: (400, "Invalid Form Body"),
}


class ApiError(Exception):
    """An error response; ``code`` is Discord's JSON error code."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    @classmethod
    def of(cls, code: int, message: str | None = None) -> ApiError:
        status, default = KNOWN_CODES[code]
        return cls(status, code, message or default)

    def to_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")


def not_found() -> ApiError:
    return ApiError(404, 0, "404: Not Found")


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` object.

    Paths are sequences like ``("embeds", 0, "title")`` and end up as
    ``{"embeds": {"0": {"title": {"_errors": [{"code", "message"}]}}}}``,
    which is what discord.py flattens into ``HTTPException.text``.
    """

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[str | int, ...], limit: int) -> None:
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: tuple[str | int, ...], low: int, high: int) -> None:
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: tuple[str | int, ...]) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def __bool__(self) -> bool:
        return bool(self.tree)

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, 50035, "Invalid Form Body", self.tree)


def form_error(path: tuple[str | int, ...], code: str, message: str) -> ApiError:
    errors = FormErrors()
    errors.add(path, code, message)
    return ApiError(400, 50035, "Invalid Form Body", errors.tree)
