"""The web table: its static files (static/: index.html, JavaScript modules, CSS), shipped as package data
and served by api.routers.web; the table is a pure client of the public HTTP API and the stream."""
