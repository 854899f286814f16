"""The browser UI: Jinja2 pages, small ES modules and SVG, served by the table server.

``macau_tables.web.routes.router`` is the FastAPI router the server includes; see
docs/web.md.
"""
