"""Services built on the core and the players: the arena (and later the store, env and server)."""
