"""``corazones serve``: check the database, print the address, run uvicorn."""

from __future__ import annotations

import logging
import sys

from corazones.server.hub import Settings


def check_db(url: str) -> str | None:
    """None when the database opens and migrates, else a one-line reason."""
    from corazones.services.store import Store

    try:
        store = Store(url).migrate()
        store.close()
    except Exception as e:  # any driver or URL error: say it in one line
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return f"{type(e).__name__}: {first}"
    return None


def serve(settings: Settings, host: str, port: int, log_level: str = "warning") -> None:
    import uvicorn

    from corazones.server.app import create_app

    logging.basicConfig(level=logging.INFO if log_level in ("info", "debug") else logging.WARNING, stream=sys.stderr)
    app = create_app(settings)
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level=log_level, lifespan="on")
