"""HTTP and WebSocket routes, one module per feature.

Each module here defines ``router`` (a FastAPI ``APIRouter``); the app
factory includes every module of this package, so a feature (the score pad,
say) adds its endpoints by adding a module, without touching the others.
"""
