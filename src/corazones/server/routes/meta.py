"""Health, the message catalog, presets and options."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from corazones.core import rules as rules_mod
from corazones.core.rules import PRESETS, Rules
from corazones.i18n import LANGS, N_, catalog_json
from corazones.players.registry import LEVELS
from corazones.server.deps import HubDep, StoreDep, refused
from corazones.server.hub import Refused

router = APIRouter()


@router.get("/healthz")
async def healthz(h: HubDep, s: StoreDep) -> JSONResponse:
    from importlib.metadata import version

    try:
        ok = await asyncio.to_thread(s.ping)
    except Exception:
        ok = False
    body: dict[str, object] = {
        "ok": ok,
        "db": "ok" if ok else "unreachable",
        "process": h.process,
        "tables": len(h.tables),
        "version": version("corazones"),
    }
    body.update(h.metrics.percentiles())
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/api/i18n/{lang}")
async def catalog(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        raise refused(
            Refused(
                "not_found", N_("unknown language {lang}; languages: {langs}"), lang=repr(lang), langs=", ".join(LANGS)
            )
        )
    return catalog_json(lang)


def _choices() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, attr in (
        ("strip", "STRIPS"),
        ("kitty_to", "KITTY_TO"),
        ("passes", "PASS_DIRECTIONS"),
        ("first_lead", "FIRST_LEADS"),
        ("hearts", "HEART_SCHEMES"),
        ("moon", "MOON_MODES"),
        ("moon_needs", "MOON_NEEDS"),
        ("tie_break", "TIE_BREAKS"),
        ("settlement", "SETTLEMENTS"),
        ("cancel_whole_trick", "CANCEL_RULES"),
    ):
        values = getattr(rules_mod, attr, None)
        if values is not None:
            out[name] = list(values)
    return out


@router.get("/api/options")
async def options() -> dict[str, Any]:
    presets = [
        {"name": name, "description": str(values.get("description", "")), "rules": Rules.preset(name).to_dict()}
        for name, values in PRESETS.items()
    ]
    return {"presets": presets, "levels": list(LEVELS), "choices": _choices()}
