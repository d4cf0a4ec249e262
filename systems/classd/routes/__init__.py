"""The HTTP operations of this system, in the order they appear in the API."""

from systems.classd.routes import fight

ROUTERS = [fight.router]
