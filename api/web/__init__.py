"""The web table's static files (index.html, its JavaScript modules and CSS), shipped as package data
and served by api.routers.web; the table is a pure client of the public HTTP API and the stream."""
