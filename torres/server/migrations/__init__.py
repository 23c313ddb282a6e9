"""Alembic migrations of the server's database (run by ``torres serve`` at start, or ``torres db upgrade``)."""
