"""The command-line face (Typer)."""
