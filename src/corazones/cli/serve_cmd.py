"""``corazones serve``: the web server (lobby, tables, the web app); ``corazones revoke``.

``--lang`` here is the language of what the command itself prints in the
terminal: its refusals, the line with the address, ``revoke``'s answer.  It
does not choose the web app's language, which each browser picks for itself
(its saved choice, else the browser's language; the app sends it to the
server with each connection), since the people at the tables are not the
operator at the terminal.  The server's log lines stay English, for the logs.
"""

from __future__ import annotations

import errno
import math
import socket
from typing import Annotated

import typer

from corazones.cli.flags import AT_LEAST_ONE, LangOpt, check_lang, quoted, refuse
from corazones.core.text import safe_line
from corazones.i18n import N_, translator
from corazones.i18n.oserrors import os_reason

#: ``--log-level`` values (the server's logger and uvicorn's).
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
CANNOT_OPEN_DB = N_("cannot open the database {url}: {why}")

#: What ``serve --help`` and ``revoke --help`` say (msgids: the help is worded in the command line's language).
SERVE_HELP = N_("Serve the web app: play in the browser against bots or with friends (prints the address).")
REVOKE_HELP = N_(
    "Sign one player out everywhere: every token issued to them stops working (operators).\n\n"
    "Runs against the server's database, while it serves or not: HTTP requests with an old token are refused at "
    "once, and every server process closes the player's open WebSockets within a third of its --lease.  The player "
    "signs in again (a guest gets a new identity)."
)


def serve(
    host: Annotated[
        str, typer.Option(metavar="HOST", help=N_("Address to listen on (0.0.0.0: every interface)"))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help=N_("Port to listen on"))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help=N_("Database URL (default: an SQLite file in your data folder); postgresql+psycopg://..."),
        ),
    ] = None,
    grace: Annotated[
        float, typer.Option(metavar="SECONDS", help=N_("Seconds a dropped player keeps the seat before a bot plays it"))
    ] = 60.0,
    bot_delay: Annotated[
        float, typer.Option(metavar="SECONDS", help=N_("Least seconds a bot takes per move, so people can follow"))
    ] = 0.5,
    bot_workers: Annotated[
        int, typer.Option(metavar="N", help=N_("Processes for bot moves (as many again for expert bots)"))
    ] = 1,
    lease: Annotated[
        float, typer.Option(metavar="SECONDS", help=N_("Seconds before another process takes over a dead one's tables"))
    ] = 10.0,
    public_url: Annotated[
        str | None,
        typer.Option(metavar="URL", help=N_("Address the players reach this server at (default: http://HOST:PORT)")),
    ] = None,
    write_limit: Annotated[
        int,
        typer.Option(metavar="N", help=N_("HTTP writes (POST) a minute per player, or per address without a token")),
    ] = 60,
    ws_per_address: Annotated[
        int,
        typer.Option(
            metavar="N",
            help=N_(
                "Open connections (table WebSockets and live score-pad followers) from one client address, "
                "in this process"
            ),
        ),
    ] = 30,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            metavar="IPS",
            help=N_(
                "Proxies trusted for X-Forwarded-For/-Proto, comma-separated, or * "
                "(default: $FORWARDED_ALLOW_IPS, else none: the headers are ignored)"
            ),
        ),
    ] = None,
    token_days: Annotated[
        float, typer.Option(metavar="DAYS", help=N_("Days a sign-in token stays valid (renewed on every visit)"))
    ] = 30.0,
    log_level: Annotated[
        str, typer.Option(metavar="LEVEL", help=N_("critical, error, warning, info or debug"))
    ] = "warning",
    lang: LangOpt = None,
) -> None:
    """``corazones serve``: the flags checked, the database opened, then the server runs until Ctrl+C."""
    from corazones.server.hub import Settings
    from corazones.server.run import check_db
    from corazones.server.run import serve as run
    from corazones.services.store import default_url, normalise_url
    from corazones.services.store.db import shown_url

    lang = check_lang(lang)  # the terminal's messages only: the web app picks its language per browser
    if not 0 <= port <= 65535:
        refuse("--port", lang, N_("{port} is not a port; allowed: 0 to 65535"), port=port)
    for name, value in (("--grace", grace), ("--bot-delay", bot_delay), ("--lease", lease)):
        if value < 0 or value != value:
            refuse(name, lang, N_("must be 0 or more seconds, not {value}"), value=value)
    for name, count in (("--write-limit", write_limit), ("--ws-per-address", ws_per_address)):
        if count < 1:
            refuse(name, lang, AT_LEAST_ONE, value=count)
    if not token_days > 0:
        refuse("--token-days", lang, N_("must be more than 0 days, not {value}"), value=token_days)
    for name, value in (
        ("--grace", grace),
        ("--bot-delay", bot_delay),
        ("--lease", lease),
        ("--token-days", token_days),
    ):
        if math.isinf(value):  # a timer or a token's age that never ends cannot be scheduled (nor stored)
            refuse(name, lang, N_("must be a finite number, not {value}"), value=value)
    if bot_workers < 1:
        refuse("--bot-workers", lang, AT_LEAST_ONE, value=bot_workers)
    if log_level not in LOG_LEVELS:
        refuse(
            "--log-level",
            lang,
            N_("unknown level {level}; levels: {levels}"),
            level=quoted(log_level),
            levels=", ".join(LOG_LEVELS),
        )
    proxies = trusted_proxies(forwarded_allow_ips, lang)
    address = public_address(public_url, host, port, lang)
    check_listen(host, port, lang)
    url = normalise_url(db) if db else default_url()
    problem = check_db(url)
    if problem is not None:
        refuse("--db", lang, CANNOT_OPEN_DB, url=quoted(shown_url(url), 200), why=problem)
    settings = Settings(
        db_url=url,
        public_url=address,
        grace=grace,
        lease_ttl=max(lease, 1.0),
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        expert_workers=bot_workers,
        http_writes_per_minute=write_limit,
        ws_per_address=ws_per_address,
        token_days=token_days,
        tune_gc=True,
        trusted_proxies=proxies,
    )
    serving = translator(lang).gettext(N_("Corazones is serving at {address}/  (database {db}; Ctrl+C stops)"))
    typer.echo(serving.format(address=address, db=shown_url(url)), err=False)
    if public_url is None and host in ANY_INTERFACE:
        note = translator(lang).gettext(
            N_(
                "Note: the invite and record links name {address}, which only this machine reaches; "
                "give --public-url with the address the players use"
            )
        )
        typer.echo(note.format(address=address), err=True)
    run(settings, host, port, log_level, proxies)


#: ``--host`` values that listen on every interface: no address players could use follows from them.
ANY_INTERFACE = ("0.0.0.0", "::", "")
#: The longest ``--public-url``: a table's row keeps it (``tables.lease_url``) for the clients of other processes.
PUBLIC_URL_MOST = 200


def public_address(public_url: str | None, host: str, port: int, lang: str) -> str:
    """The address players reach this server at: ``--public-url`` checked, else ``http://HOST:PORT``.

    It starts every invite and record link and is kept in each table's lease, so it must be an
    ``http(s)`` address a browser opens, short enough for the lease, and without a path: the web
    app calls ``/api`` and ``/ws`` at the root of its host, so it cannot be served under a prefix.
    """
    from urllib.parse import urlsplit

    if public_url is None:
        shown = "127.0.0.1" if host in ANY_INTERFACE else host
        return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"
    address = public_url.strip().rstrip("/")
    try:
        parts = urlsplit(address)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and "@" not in parts.netloc
        ok = ok and not parts.query and not parts.fragment and len(address) <= PUBLIC_URL_MOST
        ok = ok and address.isprintable() and not any(c.isspace() for c in address)
        _ = parts.port  # ValueError for a port out of range or not a number
    except ValueError:
        ok = False
    if ok and parts.path:
        refuse(
            "--public-url",
            lang,
            N_(
                "{url} has a path; the web app is served at the root of its host (it calls /api and /ws "
                "there), so give only the scheme, the host and the port, as in https://cards.example.org"
            ),
            url=quoted(public_url, 100),
        )
    if not ok:
        refuse(
            "--public-url",
            lang,
            N_(
                "{url} is not an address a browser opens; allowed: http:// or https://, a host and an "
                "optional port, at most {most} characters, as in https://cards.example.org"
            ),
            url=quoted(public_url, 100),
            most=PUBLIC_URL_MOST,
        )
    return address


def check_listen(host: str, port: int, lang: str) -> None:
    """Refuse a host or port uvicorn could not listen on, now rather than after the address was printed.

    Every address the host names is bound, IPv6 ones included (``::1``), as uvicorn will; a
    port in use or not allowed is the port's fault, an address this machine does not have the host's.
    """
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as e:
        refuse("--host", lang, N_("cannot listen on {address}: {why}"), address=safe_line(host, 100), why=os_reason(e))
    for family, kind, proto, _name, where in found:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(where)
                sock.listen()
        except OSError as e:
            flag = "--port" if e.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
            shown = f"[{where[0]}]" if family == socket.AF_INET6 else str(where[0])
            refuse(flag, lang, N_("cannot listen on {address}: {why}"), address=f"{shown}:{port}", why=os_reason(e))


def trusted_proxies(value: str | None, lang: str) -> str:
    """``--forwarded-allow-ips`` (else ``$FORWARDED_ALLOW_IPS``, else '': no proxy), checked.

    Never uvicorn's default, the loopback addresses: anything on this machine (or a local proxy
    that passes the client's own header on) could then claim any client address.

    Uvicorn takes an entry it cannot read for a name that never matches, so a typo
    (``10.0.0.0/33``, ``10.0.0.1/24`` with host bits) would silently trust no proxy, and every
    player behind it would count as the proxy's one address; and it reads ``*`` only alone.
    Each entry must be an address or a network, or the whole value ``*``.
    """
    import ipaddress
    import os

    flag = "--forwarded-allow-ips"
    if value is None:
        flag, value = "FORWARDED_ALLOW_IPS", os.environ.get("FORWARDED_ALLOW_IPS", "")
    entries = [item.strip() for item in value.split(",") if item.strip()]
    if entries == ["*"]:
        return "*"
    for item in entries:
        try:
            if item == "*":
                raise ValueError(item)
            if "/" in item:
                ipaddress.ip_network(item)
            else:
                ipaddress.ip_address(item)
        except ValueError:
            refuse(
                flag,
                lang,
                N_(
                    "{entry} is not an IP address or network; allowed: addresses and networks separated "
                    "by commas (10.0.0.2,192.168.0.0/16), or * alone"
                ),
                entry=quoted(item),
            )
    return ",".join(entries)


def revoke(
    player: Annotated[
        int, typer.Argument(metavar="PLAYER_ID", help=N_("The player's id (TableInfo seats and /api/me show it)"))
    ],
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL", help=N_("Database URL of the server (default: the SQLite file in your data folder)")
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """``corazones revoke``: the player's token generation raised in the server's database (see REVOKE_HELP)."""
    from corazones.server.run import check_db
    from corazones.services.store import Store, default_url, normalise_url
    from corazones.services.store.db import shown_url, sqlite_file

    lang = check_lang(lang)
    url = normalise_url(db) if db else default_url()
    file = sqlite_file(url)
    if file is not None and not file.exists():  # a mistyped path: say so, rather than make an empty database there
        refuse("--db", lang, N_("there is no database at {path}; give the server's --db"), path=quoted(file, 200))
    problem = check_db(url)
    if problem is not None:
        refuse("--db", lang, CANNOT_OPEN_DB, url=quoted(shown_url(url), 200), why=problem)
    store = Store(url)
    try:
        gen = store.revoke_tokens(player)
    finally:
        store.close()
    if gen is None:
        refuse(
            "PLAYER",
            lang,
            N_("there is no player {player} in the database {db} (a player's id is in /api/me and in table seats)"),
            player=player,
            db=safe_line(shown_url(url), 200),
        )
    revoked = translator(lang).gettext(N_("player {player}: every earlier token is revoked (token generation {gen})"))
    typer.echo(revoked.format(player=player, gen=gen))
