"""The web table at `/`: static files only. Everything it shows it reads through the public API."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from api.routing import OneHopRoute

WEB = Path(str(files("api.web"))) / "static"

# The page holds a member's token, so it runs only its own scripts and talks only to its own origin:
# no inline script, no third-party code, no token leaking to another host.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}

router = APIRouter(route_class=OneHopRoute)


@router.get("/", include_in_schema=False)
def web_table() -> FileResponse:
    return FileResponse(WEB / "index.html", headers=PAGE_HEADERS)


# Outside the OpenAPI document: files, not operations.
router.routes.append(Mount("/web", app=StaticFiles(directory=WEB), name="web"))
