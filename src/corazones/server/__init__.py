"""The web face: an ASGI app (FastAPI on uvicorn) over core, players and the store.

``create_app`` builds it; ``corazones serve`` runs it.  The protocol is in
``docs/protocol.md`` and its models in :mod:`corazones.server.schema`.
"""
