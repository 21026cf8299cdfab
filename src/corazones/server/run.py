"""``corazones serve``: check the database, print the address, run uvicorn."""

from __future__ import annotations

import copy
import logging
import re
import sys
from typing import Any

from corazones.server.hub import Settings

#: An invite code in a logged request's query (the invite link ``/?table=ID&invite=CODE`` opens the web app).
_INVITE = re.compile(r"([?&]invite=)[^&\s]*")


class Redact(logging.Filter):
    """Keeps secrets out of uvicorn's log lines, at every ``--log-level``.

    At ``debug`` the WebSocket library logs each frame's text (``< TEXT '{"type": "hello",
    "token": ...'``): a client's token, a seat's hand; those lines are dropped (the connection's
    opening and closing are still logged).  The access log (``info``) names each request's path
    and query, so an invite link's code is shown as ``***``: it seats whoever has it at a private table.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.DEBUG and record.msg in ("< %s", "> %s"):
            return False
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) >= 3:
            args = list(record.args)
            args[2] = _INVITE.sub(r"\1***", str(args[2]))
            record.args = tuple(args)
        return True


def log_config() -> dict[str, Any]:
    """Uvicorn's logging configuration, each of its handlers filtered by :class:`Redact`."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": Redact}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    return config


def check_db(url: str) -> str | None:
    """None when the database opens and migrates, else a one-line reason, with no password in it.

    The driver's words are kept (they name what failed: the password, the database, the
    server), but the password is hidden in them too; Corazones's own refusals (an in-memory
    database, a newer schema, a folder that is not there) are said without a class name.
    """
    from corazones.services.store import Store
    from corazones.services.store.db import MemoryDatabase, NewerDatabase, hide_password

    problem = _sqlite_path_problem(url) or _userinfo_problem(url)
    if problem is not None:
        return problem
    try:
        store = Store(url).migrate()
        store.close()
    except (MemoryDatabase, NewerDatabase) as e:
        return hide_password(str(e), url)
    except Exception as e:  # any driver or URL error: say it in one line
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return hide_password(f"{type(e).__name__}: {first}", url)
    return None


def _sqlite_path_problem(url: str) -> str | None:
    """Why an SQLite file cannot be made at the URL's path, in words (SQLite says only "unable to open
    database file"): its folder is missing, or the path is a folder.  None: try it."""
    from corazones.services.store.db import sqlite_file

    file = sqlite_file(url)
    if file is None:
        return None
    path = file.absolute()
    if path.is_dir():
        return f"{path} is a folder; give a file in it (for example {path / 'corazones.db'})"
    if not path.parent.is_dir():
        return f"the folder {path.parent} does not exist; create it, or give a file in an existing folder"
    return None


def _userinfo_problem(url: str) -> str | None:
    """A user name or password holding an ``@`` unencoded: the driver would take its rest for the host
    (and print it in its error), so it is refused before any connection, saying how to write it."""
    from corazones.services.store.db import userinfo

    user = userinfo(url)
    if user is not None and "@" in user:
        return "the user name or password in the URL holds an @: write it as %40"
    return None


def proxy_options(proxies: str) -> dict[str, Any]:
    """Uvicorn's options for the proxies to trust (``Settings.proxies``; '': none).

    Always given, never left to uvicorn: left out, it would trust ``$FORWARDED_ALLOW_IPS`` or else
    the loopback addresses.  With no proxy its header middleware is not installed at all.
    """
    return {"proxy_headers": bool(proxies), "forwarded_allow_ips": proxies}


def serve(
    settings: Settings, host: str, port: int, log_level: str = "warning", forwarded_allow_ips: str | None = None
) -> None:
    """Run the app with uvicorn.  Uvicorn takes the client's address from ``X-Forwarded-For`` (and the
    scheme from ``X-Forwarded-Proto``) only on connections from ``forwarded_allow_ips`` (None: the
    environment's ``FORWARDED_ALLOW_IPS``, else no proxy: the headers are ignored): the per-address
    limits then count the players behind a reverse proxy, not the proxy."""
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
        log_config=log_config(),
        lifespan="on",
        **proxy_options(settings.proxies()),
    )
