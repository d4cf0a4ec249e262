"""The HTTP operations of this system, in the order they appear in the API."""

from systems.nimble.routes import encounter, grapple, health

ROUTERS = [encounter.router, grapple.router, health.router]
