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

from corazones.i18n import error_json
from corazones.server import routes
from corazones.server.auth import Tokens, new_secret
from corazones.server.hub import Hub, Settings
from corazones.server.limits import HttpLimits
from corazones.server.options import from_errors
from corazones.services.store import Store

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("corazones.server")


def route_modules() -> list[Any]:
    """Every module of :mod:`corazones.server.routes` that defines a ``router``, in name order."""
    mods = []
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{routes.__name__}.{info.name}")
        if hasattr(mod, "router"):
            mods.append(mod)
    return mods


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
        # it allows, with the reason to translate; any other field with pydantic's own words.
        options = from_errors(exc.errors(), exc.body)
        if options is not None:
            detail = {"code": "malformed", "message": str(options), "reason": error_json(options)}
            return JSONResponse({"detail": detail}, status_code=422)
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))
        return JSONResponse({"detail": {"code": "malformed", "message": message}}, status_code=422)

    for mod in route_modules():
        app.include_router(mod.router)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="static")
    app.add_middleware(
        HttpLimits, writes_per_minute=int(settings.limit("http_writes_per_minute")), clock=settings.clock
    )
    return app
