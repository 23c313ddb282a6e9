"""The guided first game (issue #32): lessons on positions built with the engine (its routes come here)."""

from __future__ import annotations

from fastapi import APIRouter

from .inputs import StrictJSONRoute

router = APIRouter(route_class=StrictJSONRoute)
