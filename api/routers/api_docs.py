"""Swagger UI at /docs and ReDoc at /redoc, with their scripts and styles served from the
fastapi-offline package rather than a CDN, so the docs work offline (docs/front-ends.md)."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount

# The package ships Swagger UI's bundle and stylesheet, ReDoc's standalone script and a favicon.
PACKAGED = files("fastapi_offline") / "static"
ASSETS_URL = "/docs/assets"

# Routes of a module, built once at import like every router's (api/main.py), not per app.
router = APIRouter(include_in_schema=False)


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return get_swagger_ui_html(
        openapi_url=f"{root}/openapi.json",
        title=f"{request.app.title} - Swagger UI",
        swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
    )


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return get_redoc_html(
        openapi_url=f"{root}/openapi.json",
        title=f"{request.app.title} - ReDoc",
        redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
        redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
        with_google_fonts=False,  # web fonts would need the network
    )


router.routes.append(Mount(ASSETS_URL, StaticFiles(directory=str(PACKAGED)), name="docs-assets"))
