"""The HTTP operations of this system, in the order they appear in the API."""

from systems.nwod_micro.routes import fight

ROUTERS = [fight.router]
