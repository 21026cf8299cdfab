"""``python -m corazones`` runs the command line."""

from corazones.cli.main import app

app()
