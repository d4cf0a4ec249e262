"""Chronicle's HTTP API (FastAPI), its settings and its command-line interface."""
