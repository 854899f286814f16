"""The UI's router alone in a FastAPI app: the pages that need no table server (PAR viewer,
log-in form, the SVG modules) are tested against it."""

from fastapi import FastAPI

from macau_tables.web.routes import router

app = FastAPI()
app.include_router(router)
