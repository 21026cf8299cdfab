"""The app factory: the store, the hub, every route module, the web app's static files.

``create_app(settings)`` opens (and migrates) the database, builds the hub
when the server starts, and includes the ``router`` of every module in
:mod:`corazones.server.routes`, so a new feature is a new module there (and,
if it stores something, a new Alembic revision in the store).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from corazones.core.errors import N_, CorazonesError
from corazones.server import routes
from corazones.server.auth import Tokens, new_secret
from corazones.server.hub import Hub, Settings
from corazones.server.limits import HttpLimits
from corazones.server.options import from_errors
from corazones.server.refusal import http_detail
from corazones.services.store import Store

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("corazones.server")

#: What a browser may let the web app do (docs/server.md, "What the server sends for safety"): scripts,
#: styles, images and requests from this server only (no inline script or style, no ``eval``), so a name
#: or a chat line that ever reached the page as markup still could not run; WebSockets to any address,
#: since ``moved`` sends a page to the process that owns its table, which may have its own; no plugin, no
#: ``<base>`` that would move the app's relative addresses, forms sent nowhere else, and never in a frame.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
#: The interactive API docs (``/api/docs``) are FastAPI's page, with its inline script and the Swagger UI
#: from a CDN: it loads what it needs, but runs sandboxed in an origin of its own, so a script from another
#: site never reads the token the web app keeps in this origin's ``localStorage``; never in a frame either.
DOCS_POLICY = "sandbox allow-scripts; frame-ancestors 'none'"


class SafetyHeaders:
    """Pure ASGI middleware: the headers that keep a browser safe on every HTTP answer (WebSockets pass).

    * ``Content-Security-Policy`` (:data:`CONTENT_SECURITY_POLICY`) and ``X-Frame-Options: DENY``: no other
      site can frame the app under a decoy and steer a click onto *Join*, *Remove* or *Sign out other
      devices* (clickjacking);
    * ``X-Content-Type-Options: nosniff``: a record, a pad or a refusal holding a name written as HTML is
      read as the JSON or CSV it says it is, never as a page;
    * ``Referrer-Policy: no-referrer``: an address (a table's, a replay's) is not told to other sites;
    * ``Cache-Control: no-store`` on the API: its answers carry tokens, invite links and a pad's editing
      key, which no browser or proxy cache should keep.

    The API docs page gets :data:`DOCS_POLICY` instead; the API's description (``openapi_path``, public)
    may be read from any origin, since that page, sandboxed, has none it shares with the server.
    """

    def __init__(self, app: Any, docs_path: str | None, openapi_path: str | None) -> None:
        self.app = app
        self.docs_path = docs_path
        self.openapi_path = openapi_path

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        policy = DOCS_POLICY if self.docs_path and path == self.docs_path else CONTENT_SECURITY_POLICY
        extra = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]
        if path.startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))
        if self.openapi_path and path == self.openapi_path:
            extra.append((b"access-control-allow-origin", b"*"))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def route_modules() -> list[Any]:
    """Every module of :mod:`corazones.server.routes` that defines a ``router``, in name order."""
    mods = []
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{routes.__name__}.{info.name}")
        if hasattr(mod, "router"):
            mods.append(mod)
    return mods


def body_refusal(error: dict[str, Any]) -> CorazonesError | None:
    """The refusal of a body that is not a JSON object at all (none, not JSON, not an object), or None.

    Pydantic's own words for these name no field ("Field required") or a
    character offset where a field would stand, so they are said plainly.
    """
    loc = tuple(error.get("loc", ()))
    if error.get("type") == "json_invalid":
        at = loc[1] if len(loc) > 1 else 0
        why = str((error.get("ctx") or {}).get("error", "")) or "invalid"
        return CorazonesError(N_("The body is not valid JSON (at character {at}): {why}."), at=at, why=why)
    if loc != ("body",):
        return None
    if error.get("type") == "missing":
        return CorazonesError(N_("This request needs a body: a JSON object, sent as application/json."))
    return CorazonesError(N_("The body must be a JSON object, sent as application/json."))


def methods_of(app: FastAPI, path: str) -> list[str]:
    """The methods the API's routes take at ``path`` (none: no route there; the static files aside)."""
    found = []
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        scope: dict[str, Any] = {"type": "http", "path": path, "method": method, "root_path": "", "path_params": {}}
        if any(r.matches(scope)[0] is Match.FULL for r in app.routes if getattr(r, "name", None) != "static"):
            found.append(method)
    return found


def http_refusal(status: int, method: str, path: str, allowed: str) -> CorazonesError:
    """The framework's own refusals (404, 405, ...) in words, with what is allowed where it is known."""
    if status == 404:
        return CorazonesError(N_("There is nothing at {path}; the HTTP API is in docs/protocol.md."), path=path[:200])
    if status == 405:
        return CorazonesError(
            N_("{path} does not take {method}; it takes {allowed}."), path=path[:200], method=method, allowed=allowed
        )
    return CorazonesError(N_("The request was refused (HTTP {status})."), status=status)


def create_app(settings: Settings, static_dir: Path | None = STATIC) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url).migrate()
        app.state.store = store
        app.state.tokens = Tokens(store.secret("token", new_secret), settings.limit("token_days") * 86400)
        hub = Hub(store, settings)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="Corazones", version="0.1.0", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.settings = settings

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # A body's preset or rules options (a table's, a pad's) are refused naming the option and what
        # it allows, with the reason to translate; a body that is no JSON object at all says so, with its
        # reason too; any other field with pydantic's own words, naming the field.
        options = from_errors(exc.errors(), exc.body)
        first = exc.errors()[0] if exc.errors() else {}
        refusal = options if options is not None else body_refusal(first)
        if refusal is not None:
            detail = http_detail("malformed", refusal)
            return JSONResponse({"detail": detail}, status_code=422)
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))
        return JSONResponse({"detail": {"code": "malformed", "message": message}}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The routes' refusals carry their own detail; the framework's own (no such address, a method the
        # address does not take) get the same shape, so a client reads every refusal one way.  A path the
        # API serves with other methods is a 405 naming them, whichever part of the app answered first
        # (the static files take every GET they do not know).
        detail: Any = exc.detail
        status, headers = exc.status_code, dict(exc.headers or {})
        if not isinstance(detail, dict):
            path = request.url.path
            allowed = methods_of(app, path)
            if allowed and request.method not in allowed:
                status, headers["Allow"] = 405, ", ".join(allowed)
            elif not allowed and status == 405:
                # The static files refused a write (they take only reads): under /api/ there is nothing
                # at all (404, as a read there is); elsewhere, say which methods the page takes.
                if path.startswith("/api/"):
                    status = 404
                    headers.pop("Allow", None)
                else:
                    allowed = [m.strip() for m in headers.get("Allow", "GET, HEAD").split(",")]
            refusal = http_refusal(status, request.method, path, ", ".join(allowed))
            code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http")
            detail = http_detail(code, refusal)
        return JSONResponse({"detail": detail}, status_code=status, headers=headers or None)

    for mod in route_modules():
        app.include_router(mod.router)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="static")
    app.add_middleware(
        HttpLimits, writes_per_minute=int(settings.limit("http_writes_per_minute")), clock=settings.clock
    )
    # Outermost, so the limits' own refusals (413, 429) carry the headers too.
    app.add_middleware(SafetyHeaders, docs_path=app.docs_url, openapi_path=app.openapi_url)
    return app
