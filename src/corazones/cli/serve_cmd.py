"""``corazones serve``: the web server (lobby, tables, the web app); ``corazones revoke``.

``--lang`` here is the language of what the command itself prints in the
terminal: its refusals, the line with the address, ``revoke``'s answer.  It
does not choose the web app's language, which each browser picks for itself
(its saved choice, else the browser's language; the app sends it to the
server with each connection), since the people at the tables are not the
operator at the terminal.  The server's log lines stay English, for the logs.
"""

from __future__ import annotations

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
        int, typer.Option(metavar="N", help=N_("Processes for bot moves (another one for expert bots)"))
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
                "(default: $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)"
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
    try:  # a clear message now rather than a bind error after the address was printed
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        refuse(
            "--port",
            lang,
            N_("cannot listen on {address}: {why}"),
            address=f"{safe_line(host, 100)}:{port}",
            why=os_reason(e),
        )
    url = normalise_url(db) if db else default_url()
    problem = check_db(url)
    if problem is not None:
        refuse("--db", lang, CANNOT_OPEN_DB, url=quoted(url, 200), why=problem)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = (public_url or f"http://{shown}:{port}").rstrip("/")
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
    )
    safe_db = url.split("@")[-1] if "@" in url else url
    serving = translator(lang).gettext(N_("Corazones is serving at {address}/  (database {db}; Ctrl+C stops)"))
    typer.echo(serving.format(address=address, db=safe_db), err=False)
    run(settings, host, port, log_level, forwarded_allow_ips)


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

    lang = check_lang(lang)
    url = normalise_url(db) if db else default_url()
    problem = check_db(url)
    if problem is not None:
        refuse("--db", lang, CANNOT_OPEN_DB, url=quoted(url, 200), why=problem)
    store = Store(url)
    try:
        gen = store.revoke_tokens(player)
    finally:
        store.close()
    if gen is None:
        safe_db = url.split("@")[-1] if "@" in url else url
        refuse(
            "PLAYER",
            lang,
            N_("there is no player {player} in the database {db} (a player's id is in /api/me and in table seats)"),
            player=player,
            db=safe_line(safe_db, 200),
        )
    revoked = translator(lang).gettext(N_("player {player}: every earlier token is revoked (token generation {gen})"))
    typer.echo(revoked.format(player=player, gen=gen))
