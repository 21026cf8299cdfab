"""What every part of the hub works with: the store, this process's settings and name, and its tables."""

from __future__ import annotations

from dataclasses import dataclass

from corazones.server.settings import Settings
from corazones.server.table import Tables
from corazones.services.store import Store


@dataclass(frozen=True)
class Context:
    store: Store
    settings: Settings
    #: This process's name in the tables' leases (host, process id and a random part).
    process: str
    tables: Tables
