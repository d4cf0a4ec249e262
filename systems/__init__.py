"""The game systems Chronicle plays. Each is a package that stands together under its name:

    systems/<name>/rules/      its rules, pure code: the package's RULESET (no store, API or views)
    systems/<name>/commands/   its commands: the package's SYSTEM, the component the application holds
    systems/<name>/routes/     its HTTP operations: the package's ROUTERS
    systems/<name>/views.py    what its events change in the views (optional)
    systems/<name>/odds.py     the chances of its dice (pure)
    systems/<name>/docs/       its rules reference and API guide

Each layer of Chronicle loads the part it needs by this convention, so adding a fifth system is a new
package and one line in INSTALLED (docs/architecture.md, "How to add a game system"). The layers
stay apart: the domain never imports a system's routes, and systems never import each other
(import-linter contracts in pyproject.toml).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

# The installed systems, in the order their routes appear in the API.
INSTALLED = ("wcbh", "classd", "nimble", "nwod_micro")


def parts(part: str) -> list[ModuleType]:
    """One module per installed system: `rules`, `commands`, `routes` or `views` (those that have it)."""
    found = []
    for name in INSTALLED:
        try:
            found.append(import_module(f"{__name__}.{name}.{part}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}.{part}":
                raise
    return found
