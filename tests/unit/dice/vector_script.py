"""docs/check_vectors.py loaded as a module (docs/ is no package), for the tests that use it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

DOCS = Path(__file__).resolve().parents[3] / "docs"


def load() -> ModuleType:
    name = "check_vectors"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, DOCS / "check_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
