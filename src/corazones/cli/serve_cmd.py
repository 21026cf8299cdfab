"""``corazones serve``: the web server (lobby, tables, the web app)."""

from __future__ import annotations

import socket
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: an SQLite file in your data folder); postgresql+psycopg://..."),
    ] = None,
    grace: Annotated[float, typer.Option(help="Seconds a dropped player keeps the seat before a bot plays it")] = 60.0,
    bot_delay: Annotated[float, typer.Option(help="Least seconds a bot takes per move, so people can follow")] = 0.5,
    bot_workers: Annotated[int, typer.Option(help="Processes for bot moves (another one for expert bots)")] = 1,
    lease: Annotated[float, typer.Option(help="Seconds before another process takes over a dead one's tables")] = 10.0,
    public_url: Annotated[
        str | None, typer.Option(help="Address the players reach this server at (default: http://HOST:PORT)")
    ] = None,
    write_limit: Annotated[
        int, typer.Option(help="HTTP writes (POST) a minute per player, or per address without a token")
    ] = 60,
    ws_per_address: Annotated[
        int,
        typer.Option(
            help="Open connections (table WebSockets and live score-pad followers) from one client address, "
            "in this process"
        ),
    ] = 30,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies trusted for X-Forwarded-For/-Proto, comma-separated, or * "
            "(default: $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)"
        ),
    ] = None,
    token_days: Annotated[float, typer.Option(help="Days a sign-in token stays valid (renewed on every visit)")] = 30.0,
    log_level: Annotated[str, typer.Option(help="critical, error, warning, info or debug")] = "warning",
) -> None:
    """Serve the web app: play in the browser against bots or with friends (prints the address)."""
    from corazones.server.hub import Settings
    from corazones.server.run import check_db
    from corazones.server.run import serve as run
    from corazones.services.store import default_url, normalise_url

    if not 0 <= port <= 65535:
        raise typer.BadParameter(f"{port} is not a port; allowed: 0 to 65535", param_hint="'--port'")
    for name, value in (("--grace", grace), ("--bot-delay", bot_delay), ("--lease", lease)):
        if value < 0 or value != value:
            raise typer.BadParameter(f"must be 0 or more seconds, not {value}", param_hint=f"'{name}'")
    for name, count in (("--write-limit", write_limit), ("--ws-per-address", ws_per_address)):
        if count < 1:
            raise typer.BadParameter(f"must be at least 1, not {count}", param_hint=f"'{name}'")
    if not token_days > 0:
        raise typer.BadParameter(f"must be more than 0 days, not {token_days}", param_hint="'--token-days'")
    if bot_workers < 1:
        raise typer.BadParameter(f"must be at least 1, not {bot_workers}", param_hint="'--bot-workers'")
    if log_level not in ("critical", "error", "warning", "info", "debug"):
        raise typer.BadParameter(f"unknown level {log_level!r}", param_hint="'--log-level'")
    try:  # a clear message now rather than a bind error after the address was printed
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise typer.BadParameter(f"cannot listen on {host}:{port}: {e.strerror or e}", param_hint="'--port'") from None
    url = normalise_url(db) if db else default_url()
    problem = check_db(url)
    if problem is not None:
        raise typer.BadParameter(f"cannot open the database {url!r}: {problem}", param_hint="'--db'")
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
    typer.echo(f"Corazones is serving at {address}/  (database {safe_db}; Ctrl+C stops)", err=False)
    run(settings, host, port, log_level, forwarded_allow_ips)


def revoke(
    player: Annotated[int, typer.Argument(help="The player's id (TableInfo seats and /api/me show it)")],
    db: Annotated[
        str | None,
        typer.Option(help="Database URL of the server (default: the SQLite file in your data folder)"),
    ] = None,
) -> None:
    """Sign one player out everywhere: every token issued to them stops working (operators).

    Runs against the server's database, while it serves or not: HTTP requests with an old
    token are refused at once, and every server process closes the player's open WebSockets
    within a third of its --lease.  The player signs in again (a guest gets a new identity).
    """
    from corazones.server.run import check_db
    from corazones.services.store import Store, default_url, normalise_url

    url = normalise_url(db) if db else default_url()
    problem = check_db(url)
    if problem is not None:
        raise typer.BadParameter(f"cannot open the database {url!r}: {problem}", param_hint="'--db'")
    store = Store(url)
    try:
        gen = store.revoke_tokens(player)
    finally:
        store.close()
    if gen is None:
        safe_db = url.split("@")[-1] if "@" in url else url
        raise typer.BadParameter(
            f"there is no player {player} in the database {safe_db} (a player's id is in /api/me and in table seats)",
            param_hint="'PLAYER'",
        )
    typer.echo(f"player {player}: every earlier token is revoked (token generation {gen})")
