"""Swagger UI at /docs and ReDoc at /redoc, with their scripts and styles served from the
fastapi-offline package rather than a CDN, so the docs work offline (docs/front-ends.md)."""

from __future__ import annotations

from importlib.resources import files
from typing import TypedDict

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount

from api.routing import OneHopRoute

# The package ships Swagger UI's bundle and stylesheet, ReDoc's standalone script and a favicon.
PACKAGED = files("fastapi_offline") / "static"
ASSETS_URL = "/docs/assets"

# Routes of a module, built once at import like every router's (api/main.py), not per app.
router = APIRouter(route_class=OneHopRoute, include_in_schema=False)


class _Page(TypedDict):
    openapi_url: str
    title: str


def _page(request: Request, title: str) -> _Page:
    """What both pages are given: the schema's URL and the page's title."""
    root = request.scope.get("root_path", "")
    return {"openapi_url": f"{root}/openapi.json", "title": f"{request.app.title} - {title}"}


def _asset(request: Request, name: str) -> str:
    """A packaged file's URL under the root path the app is served at (behind a proxy)."""
    return f"{request.scope.get('root_path', '')}{ASSETS_URL}/{name}"


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    return get_swagger_ui_html(
        **_page(request, "Swagger UI"),
        swagger_js_url=_asset(request, "swagger-ui-bundle.js"),
        swagger_css_url=_asset(request, "swagger-ui.css"),
        swagger_favicon_url=_asset(request, "favicon.png"),
    )


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    return get_redoc_html(
        **_page(request, "ReDoc"),
        redoc_js_url=_asset(request, "redoc.standalone.js"),
        redoc_favicon_url=_asset(request, "favicon.png"),
        with_google_fonts=False,  # web fonts would need the network
    )


router.routes.append(Mount(ASSETS_URL, StaticFiles(directory=str(PACKAGED)), name="docs-assets"))
