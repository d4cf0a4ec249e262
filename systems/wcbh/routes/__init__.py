"""The HTTP operations of this system, in the order they appear in the API."""

from systems.wcbh.routes import fight, ground, resolve, scene_play

ROUTERS = [resolve.router, scene_play.router, fight.router, ground.router]
