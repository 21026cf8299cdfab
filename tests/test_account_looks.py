"""Accounts are unique by what their names look like, not by their letters: ``Аna`` (a Cyrillic ``А``)
cannot register beside ``Ana``, on SQLite and PostgreSQL; and the store's revision 0005 applied to a
database left at 0004 keeps every account working, two that already looked alike included."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from corazones.server.auth import hash_password
from corazones.server.client import Api, ApiError
from corazones.server.local import LocalServer, ManualClock
from corazones.services.store import Store, make_engine
from corazones.services.store.db import MIGRATIONS
from corazones.services.store.looks import look
from tests.helpers import sqlalchemy_url

#: Names that look like "Ana" to a reader: Cyrillic А, Greek Α, full-width, an accent, small capitals.
LOOK_ALIKES = ["Аna", "ΑNA", "Ａｎａ", "Àna", "ᴀɴᴀ", "anа", "ANA"]


def test_the_look_folds_what_a_reader_cannot_see() -> None:
    assert {look(n) for n in ["Ana", *LOOK_ALIKES]} == {"ana"}
    assert look("Ana  Pérez") == look("ana perez") == look("Ana\u3164Perez")
    assert look("Ηana") == "hana" and look("ηana") == "nana"  # Greek capital eta is an H, small eta an n
    assert look("Ana") != look("Ano") and look("Ana Pérez") != look("AnaPérez")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_an_account_that_looks_like_another_is_refused(store: Store, name: str) -> None:
    first = store.add_player("Ana", "account", "ana", "x")
    assert first.look == "ana"
    with pytest.raises(ValueError, match="taken"):
        store.add_player(name, "account", name.casefold(), "x")
    guest = store.add_player(name, "guest")  # guests' names need not be unique, nor keep a look
    assert guest.look is None
    assert store.add_player("Ana María", "account", "ana maría", "x").look == "ana maria"


def test_registering_a_look_alike_name_answers_taken(tmp_path: Path) -> None:
    with LocalServer(f"sqlite:///{tmp_path}/looks.db", bot_delay=0.0, clock=ManualClock()) as srv:
        api = Api(srv.base)
        ana = api.request("POST", "/api/auth/register", {"name": "Ana", "password": "password-1"})
        for name in ("Аna", "ΑNA", "Àna"):
            with pytest.raises(ApiError) as e:
                Api(srv.base).request("POST", "/api/auth/register", {"name": name, "password": "password-2"})
            assert e.value.status == 409 and "taken" in e.value.detail["message"], e.value.detail
        back = Api(srv.base).request("POST", "/api/auth/login", {"name": "ana", "password": "password-1"})
        assert back["player"]["id"] == ana["player"]["id"]


# ------------------------------------------------------------------- the migration


def _database_at_0004(url: str) -> dict[str, int]:
    """A database as a server of revision 0004 left it: two accounts that look alike ("Ana", and "Аna" in
    Cyrillic, registered later), another account and a guest of the same look."""
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004_ratings")
    ids: dict[str, int] = {}
    with engine.begin() as conn:
        for key, name, kind, login in [
            ("latin", "Ana", "account", "ana"),
            ("guest", "ANA", "guest", None),
            ("cyrillic", "Аna", "account", "аna"),
            ("bea", "Bea", "account", "bea"),
        ]:
            conn.execute(
                text(
                    "INSERT INTO players (name, kind, login, password_hash, created) "
                    "VALUES (:name, :kind, :login, :hash, 1.0)"
                ),
                {"name": name, "kind": kind, "login": login, "hash": hash_password(f"{key}-password")},
            )
            ids[key] = conn.execute(text("SELECT max(id) FROM players")).scalar_one()
    engine.dispose()
    return ids


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_revision_0005_keeps_accounts_that_look_alike_working(
    dialect: str, request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    if dialect == "sqlite":
        url = f"sqlite:///{tmp_path}/old.db"
    else:
        url = sqlalchemy_url(request.getfixturevalue("fresh_postgres_url"))
    ids = _database_at_0004(url)
    with caplog.at_level(logging.WARNING, logger="corazones.store"):
        store = Store(url).migrate()
    try:
        assert f"account {ids['cyrillic']} ('Аna') looks like account {ids['latin']}" in caplog.text
        with store.engine.connect() as conn:
            looks = dict(conn.execute(text("SELECT id, look FROM players")).all())
        # the oldest account holds the look; the later look-alike and the guest have none
        assert looks == {ids["latin"]: "ana", ids["guest"]: None, ids["cyrillic"]: None, ids["bea"]: "bea"}
        for key, login in [("latin", "ana"), ("cyrillic", "аna"), ("bea", "bea")]:
            found = store.player_by_login(login)
            assert found is not None and found.id == ids[key]
        for name in ("ANA", "Ànа", "Bеa"):  # neither look may be registered again
            with pytest.raises(ValueError, match="taken"):
                store.add_player(name, "account", name.casefold(), "x")
        store.migrate()  # a second start changes nothing
    finally:
        store.close()


def test_accounts_that_looked_alike_before_0005_still_log_in(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/old.db"
    ids = _database_at_0004(url)
    with LocalServer(url, bot_delay=0.0, clock=ManualClock()) as srv:
        for key, name in [("latin", "Ana"), ("cyrillic", "Аna")]:
            reply = Api(srv.base).request("POST", "/api/auth/login", {"name": name, "password": f"{key}-password"})
            assert reply["player"]["id"] == ids[key] and reply["player"]["name"] == name


def test_a_long_name_whose_folded_form_is_longer_registers(store: Store) -> None:
    """``ß`` case-folds to ``ss``: a 40-character name's login key is 80 characters, which PostgreSQL's
    40-character column refused (an error, not "taken")."""
    name = "Straße" + "ß" * 34
    p = store.add_player(name, "account", name.casefold(), "x")
    found = store.player_by_login(name.casefold())
    assert found is not None and found.id == p.id and found.look == look(name)
