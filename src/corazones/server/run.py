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


def serve(
    settings: Settings, host: str, port: int, log_level: str = "warning", forwarded_allow_ips: str | None = None
) -> None:
    """Run the app with uvicorn.  Uvicorn takes the client's address from ``X-Forwarded-For`` (and the
    scheme from ``X-Forwarded-Proto``) only on connections from ``forwarded_allow_ips`` (None: the
    environment's ``FORWARDED_ALLOW_IPS``, else the loopback addresses): the per-address limits
    then count the players behind a reverse proxy, not the proxy."""
    import uvicorn

    from corazones.server.app import create_app
    from corazones.server.guard import guarded_protocol

    logging.basicConfig(level=logging.INFO if log_level in ("info", "debug") else logging.WARNING, stream=sys.stderr)
    settings.trusted_proxies = forwarded_allow_ips
    app = create_app(settings)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=65536,
        http=guarded_protocol(settings.connections),
        log_level=log_level,
        lifespan="on",
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
