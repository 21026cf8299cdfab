"""``corazones --version``: the version and which build of the engine runs.

A failed compile at install time is easy to miss (pip shows a build's messages
only with ``-v``), and the pure Python build plays the same, only slower: this
is where a user can see which one they have, and why.
"""

from __future__ import annotations

import typer


def version_text(lang: str) -> str:
    """``corazones 0.1.0 (compiled engine)``, or pure Python with the reason the install gave."""
    from corazones import __version__
    from corazones.core import deal
    from corazones.core.native import build_failure, is_compiled
    from corazones.i18n import translator

    _ = translator(lang).gettext
    reason = build_failure()
    if is_compiled(deal):
        build = _("compiled engine")
    elif reason is not None:
        build = _("pure Python: the install could not compile the engine: {reason}").format(reason=reason)
    else:
        build = _("pure Python engine")
    return f"corazones {__version__} ({build})"


def show_version(value: bool) -> None:
    """Typer callback of ``--version``: print and stop."""
    if value:  # eager: shown before --lang is parsed, so in the language the toolkit read from the command line
        from corazones.cli.toolkit import spoken_lang

        typer.echo(version_text(spoken_lang()))
        raise typer.Exit()
