"""The game server (``torres serve``): games in a database, seats with tokens, per-seat views over websockets.

Rules live in the engine; this package only checks who may act, asks the engine, stores, and tells each
connection what its seat may see (docs/server.md)."""
