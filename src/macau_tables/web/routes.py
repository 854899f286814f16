"""The browser UI's routes: pages, htmx fragments, the tile helpers and the static files.

``router`` is a FastAPI ``APIRouter`` the table server includes (``app.include_router``).
The pages are thin: they render a template with the words of the chosen language; the
live tables are drawn in the browser from the server's JSON (the engines' views, sent per
viewer over the table's WebSocket). What the page needs that is game logic — the names and
ranks of a four-tile hand's three settings, the exact hint, a PAR sheet — is computed here
by the library and sent as HTML or JSON, never re-implemented in JavaScript.

URL map (the server owns ``/tables``, ``/auth`` … for its API; the UI keeps out of them)::

    /                      lobby                    /login          log in
    /table/{game}/{id}     a live table             /cashier        deposit / withdraw
    /history               my rounds and postings   /par            PAR sheets
    /dealer/{id}           the dealer's console at a live table
    /auditor               the meters, the gaming-day close
    /recall                last rounds, step by step (a player's own; staff: a table)
    /supervisor            the pit: every table live, its controls, requests and approvals
    /admin                 the administrator's accounts: create, disable, new passwords
    /ui/par/{game}         a PAR sheet (fragment)   /ui/hint        the exact hint (fragment)
    /ui/settings           a hand's three settings, names and ranks (JSON)
    /ui/tables             the lobby's board for a visitor not logged in (JSON)
    /ui/pit                every table for the pit (staff, JSON); /ui/pit/{id} one table's
                           last round and the keyed-in operation a correction may change
    /ui/history            a player's rounds, summed up, a page at a time, and his session
    /ui/room/{id}          what I may bet now at a table, spot by spot (JSON, a player)
    /ui/clock              the server's clock (the countdown ring's deadlines are its own)
    /multi?tables=a,b      several live tables side by side
    /static/{path}         CSS, ES modules, vendored htmx
"""

from __future__ import annotations

import functools
import json
import mimetypes
import re
import time
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from macau_tables.core.errors import MacauTablesError
from macau_tables.web import i18n

HERE = Path(__file__).parent
STATIC = HERE / "static"
GAMES = tuple(i18n.GAMES)
LANG_COOKIE = "lang"
_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")

router = APIRouter(include_in_schema=False)

_env = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _lang(request: Request) -> str:
    return i18n.lang_of(request.query_params.get("lang") or request.cookies.get(LANG_COOKIE))


def _page(
    request: Request, template: str, title: str, *, game_page: bool = False, **context: Any
) -> HTMLResponse:
    lang = _lang(request)
    # the language switch: this page in each language (the current one marked)
    switches = []
    for code in i18n.LANGS:
        query = dict(request.query_params) | {"lang": code}
        url = request.url.path + "?" + "&".join(f"{k}={v}" for k, v in query.items())
        switches.append(
            {
                "code": code,
                "url": url,
                "name": i18n.LANG_NAMES[code],
                "html_lang": i18n.HTML_LANG[code],
                "current": code == lang,
            }
        )
    html = _env.get_template(template).render(
        lang=lang,
        t=lambda key: i18n.t(key, lang),
        game_name=lambda g: i18n.game_name(g, lang),
        title=i18n.game_name(title, lang) if game_page else i18n.t(title, lang),
        html_lang=i18n.HTML_LANG[lang],
        switches=switches,
        strings_json=json.dumps(i18n.strings(lang), ensure_ascii=False),
        path=request.url.path,
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in i18n.LANGS:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


# --- pages ----------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def lobby(request: Request) -> HTMLResponse:
    return _page(request, "lobby.html", "lobby", games=GAMES)


@router.get("/login", response_class=HTMLResponse)
def login(request: Request) -> HTMLResponse:
    return _page(request, "login.html", "login")


# the chips of each game's rail, in MOP (a baccarat table's limits start at MOP 100; craps
# from MOP 1; a tile table has none by default)
CHIPS: dict[str, tuple[int, ...]] = {
    "baccarat": (100, 500, 1000, 5000, 10000),
    "craps": (5, 25, 100, 500, 1000),
    "paigow": (50, 100, 500, 1000, 5000),
    "taiwan": (50, 100, 500, 1000, 5000),
}
# the four games have their own page; any other game (a new engine, the server's test
# double) gets the generic one: the view as sent, and the operations pending for me
PAGES = {"paigow": "tiles", "taiwan": "tiles", "baccarat": "baccarat", "craps": "craps"}


def _table_context(game: str, table_id: str, lang: str, uid: str = "") -> dict[str, Any]:
    """What a table's template needs (its page, or one of several side by side: ``uid``
    prefixes its element ids)."""
    context: dict[str, Any] = {
        "game": game,
        "table_id": table_id,
        "uid": uid,
        "page": PAGES.get(game, "generic"),
        "chips": CHIPS.get(game, ()),
    }
    if game == "craps":
        context["craps_bets"] = {b["name"]: b for b in _craps_layout(lang)}
    if game == "baccarat":
        context["baccarat_bets"] = [(k, i18n.pick(v, lang)) for k, v in i18n.BACCARAT.items()]
    return context


@router.get("/table/{game}/{table_id}", response_class=HTMLResponse)
def table(request: Request, game: str, table_id: str) -> HTMLResponse:
    if not _GAME_NAME.fullmatch(game):
        raise HTTPException(404, f"no game {game!r}")
    context = _table_context(game, table_id, _lang(request))
    return _page(request, "table.html", game, game_page=True, **context)


@router.get("/multi", response_class=HTMLResponse)
def multi(request: Request, tables: str = "") -> HTMLResponse:
    """Several live tables side by side (``tables``: ``game:id`` or an id of the floor,
    comma separated, at most four); the one that needs me is marked."""
    floor = getattr(request.app.state, "floor", None)
    known = {t: a.game.name for t, a in floor.tables.items()} if floor is not None else {}
    lang = _lang(request)
    shown: list[dict[str, Any]] = []
    for n, item in enumerate(x for x in tables.split(",") if x.strip()):
        game, _, table_id = item.strip().rpartition(":")
        game = game or known.get(table_id, "")
        if not _GAME_NAME.fullmatch(game) or len(shown) >= 4:
            continue
        shown.append(_table_context(game, table_id, lang, uid=f"t{n}-"))
    return _page(request, "multi.html", "side_by_side", shown=shown)


@router.get("/dealer/{table_id}", response_class=HTMLResponse)
def dealer(request: Request, table_id: str) -> HTMLResponse:
    """The dealer's console at a live table: pending dealer operations, the
    key-in forms, the players waited for, the table as the dealer sees it."""
    return _page(request, "dealer.html", "dealer_console", table_id=table_id)


@router.get("/cashier", response_class=HTMLResponse)
def cashier(request: Request) -> HTMLResponse:
    return _page(request, "cashier.html", "cashier")


@router.get("/supervisor", response_class=HTMLResponse)
def supervisor(request: Request) -> HTMLResponse:
    """The supervisor's page: requests to decide, void / correct / limits / freeze forms,
    disputes and the audit log (all through the server's API, docs/operations.md)."""
    return _page(request, "supervisor.html", "supervisor")


@router.get("/admin", response_class=HTMLResponse)
def admin(request: Request) -> HTMLResponse:
    """The administrator's console: accounts created, disabled, enabled again and given a
    new password, each asked by one administrator and approved by another."""
    roles = ["player", "dealer", "cashier", "supervisor", "auditor", "administrator"]
    return _page(request, "admin.html", "adm.title", roles=roles)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request) -> HTMLResponse:
    return _page(request, "history.html", "history")


@router.get("/auditor", response_class=HTMLResponse)
def meters(request: Request) -> HTMLResponse:
    """The auditor's meters: drawn from ``GET /meters`` in the browser."""
    return _page(request, "meters.html", "meters")


@router.get("/recall", response_class=HTMLResponse)
def recall(request: Request) -> HTMLResponse:
    """A player's last rounds; staff pick a table or a player."""
    return _page(request, "recall.html", "recall")


@router.get("/par", response_class=HTMLResponse)
def par(request: Request, game: str = "baccarat") -> HTMLResponse:
    if game not in GAMES:
        raise HTTPException(404, f"no game {game!r}: {', '.join(GAMES)}")
    return _page(request, "par.html", "par", game=game, games=GAMES, query=request.url.query)


@router.get("/ui/tables")
def ui_tables(request: Request) -> JSONResponse:
    """The lobby for a visitor who is not logged in: each table as anyone may read it
    (``info(staff=False)``: a lock's public reason) with the public view's limits and road
    maps — what a casino's lobby board shows. Logged in, the lobby reads ``GET /tables``."""
    from macau_tables.core.visibility import Viewer

    floor = getattr(request.app.state, "floor", None)
    out = []
    for actor in floor.tables.values() if floor is not None else ():
        info = actor.info(staff=False)
        view = actor.engine.view(Viewer.PUBLIC) if actor.engine is not None else {}
        info["view"] = {k: view[k] for k in ("rules", "limits", "roads") if k in view}
        info["seats"] = seats_taken(view)
        out.append(info)
    return JSONResponse(sorted(out, key=lambda t: t["id"]))


# --- the staff's and the player's JSON: authenticated as the server's API is ------------------


async def _caller(request: Request, permission: str) -> tuple[Any, Any, str]:
    """The floor, the user the request's session (or bearer token) names and the token,
    once the user's role has ``permission`` (401 ``SRV-AUTH`` / 403 ``SRV-ROLE`` as the
    server's own endpoints answer: its error handlers write the JSON)."""
    from macau_tables.server.auth import require
    from macau_tables.server.session import credential

    floor = getattr(request.app.state, "floor", None)
    if floor is None:
        raise HTTPException(404, "no floor is served here")
    token = credential(request.headers, request.method)
    user = await floor.authenticate(token)
    require(user, permission)
    return floor, user, token


def main_limits(view: dict[str, Any]) -> list[int] | None:
    """The main bet's [min, max] in avos as the table's rules say them (baccarat Player and
    Banker, craps a flat bet, a tile table a bet on a place, another game ``limits``);
    None when the table has none (a tile table's 0 and 0)."""
    rules = view.get("rules") or {}
    pair: Any = None
    if isinstance(rules.get("limits"), dict) and "player" in rules["limits"]:
        pair = rules["limits"]["player"]
    elif "min_bet" in rules or "max_bet" in rules:
        pair = [rules.get("min_bet"), rules.get("max_bet")]
    elif isinstance(rules.get("round"), dict):
        pair = [rules["round"].get("min_bet"), rules["round"].get("max_bet")]
    elif isinstance(view.get("limits"), dict):
        pair = [view["limits"].get("min"), view["limits"].get("max")]
    if not pair or not any(pair):
        return None
    return [int(pair[0] or 0), int(pair[1] or 0)]


@router.get("/ui/pit")
async def ui_pit(request: Request) -> JSONResponse:
    """Every table as the pit sees it (supervisors, auditors): its status and the staff's
    reason for a lock, the game, whether a dealer runs it, its phase, the players seated
    and its seats, its main bet's limits (and baccarat's others), the countdown. The
    day's drop, win and hold are the meters' (``GET /meters``)."""
    from macau_tables.core.visibility import Viewer

    floor, _, _ = await _caller(request, "supervisor.read")
    out = []
    for actor in sorted(floor.tables.values(), key=lambda a: a.table_id):
        info = actor.info(staff=True)
        view = actor.engine.view(Viewer.PUBLIC) if actor.engine is not None else {}
        rules = view.get("rules") or {}
        info |= {
            "live": not actor.auto_dealer,
            "phase": view.get("phase"),
            "seats": seats_taken(view)["capacity"],
            "limits": main_limits(view),
            "bet_limits": rules.get("limits") if isinstance(rules.get("limits"), dict) else None,
            "next_limits": view.get("next_limits"),
        }
        out.append(info)
    return JSONResponse(out)


@router.get("/ui/pit/{table_id}")
async def ui_pit_table(request: Request, table_id: str) -> JSONResponse:
    """One table for the supervisor's forms: its last round (number, status, its first and
    last entries) — the round a void applies to — and, if the table's last operation keyed
    in an outcome a correction may change (the engine's ``CORRECTABLE``), that operation:
    its entry, its name, the arguments it was keyed with and those a correction changes."""
    from macau_tables.core.visibility import Viewer
    from macau_tables.server.recall import table_recall

    floor, _, _ = await _caller(request, "supervisor.read")
    actor = floor.table(table_id)
    rec = await floor.db.read(
        lambda c: table_recall(
            c, table_id, actor.game, actor.header, Viewer.SUPERVISOR, 1, None, actor.checked()
        )
    )
    last = rec["rounds"][-1] if rec["rounds"] else None
    keyed = None
    engine = actor.engine
    correctable = dict(getattr(engine, "CORRECTABLE", {}) or {})
    if last is not None and last["steps"] and engine is not None:
        step = last["steps"][-1]  # (as the replay cuts the journal into operations)
        ends = step["events"][-1]["seq"]
        if step["op"] in correctable and ends == len(engine.journal) - 1:
            cmd = engine.command_of(engine.journal.entry(step["seq"]).event)
            fields = list(correctable[step["op"]])
            if cmd is not None:
                keyed = {
                    "seq": step["seq"],
                    "op": step["op"],
                    "fields": fields,
                    "args": {k: v for k, v in cmd.args.items() if k in fields},
                    "round": last["round"],
                }
    return JSONResponse(
        {
            "table": actor.info(staff=True),
            "round": None
            if last is None
            else {
                "number": last["round"],
                "status": last["status"],
                "first_seq": last["first_seq"],
                "last_seq": last["last_seq"],
            },
            "rounds_total": rec["rounds_total"],
            "keyed": keyed,
        }
    )


@router.get("/ui/history")
async def ui_history(
    request: Request,
    player: Annotated[str | None, Query(max_length=64)] = None,
    before: Annotated[str | None, Query(max_length=200)] = None,
) -> JSONResponse:
    """A player's rounds, newest first, a page at a time (``before``: the ``older`` cursor
    of the page after), each summed up (``web/history.py``), with his wallet, his chips and
    what he won or lost since he logged in (his session). A player reads his own; a
    supervisor or an auditor names the player."""
    from macau_tables.core.visibility import Viewer
    from macau_tables.server.auth import StaffRole, get_user
    from macau_tables.server.errors import ApiError, forbidden, not_found
    from macau_tables.web import history as H

    floor, user, token = await _caller(request, "recall.player")
    name = player or user.name
    if user.role is StaffRole.PLAYER and name != user.name:
        raise forbidden("a player reads his own history only")
    found = await floor.db.read(lambda c: get_user(c, name))
    if found is None or found[0].role is not StaffRole.PLAYER:
        raise not_found(f"no player {name!r}", "SRV-PLAYER")
    try:
        cursor = H.parse_cursor(before)
    except ValueError as exc:
        raise ApiError(
            422, "invalid_input", "before is the cursor a page names as 'older'", "SRV-INPUT"
        ) from exc
    # (staff read it as the player saw it: his history, not the table's)
    viewer = Viewer.player(name)
    played = await floor.db.read(lambda c: H.played_tables(c, floor, name))
    page = await floor.db.read(lambda c: H.history_page(c, played, name, viewer, cursor))
    expires = floor.token_expires_ms(token) if name == user.name else None
    since = None if expires is None else expires - floor.settings.token_seconds * 1000

    def money(conn: Any) -> dict[str, Any]:
        out = H.balances(conn, name)
        if since is not None:
            out |= {"session_net": H.session_net(conn, name, since), "session_since": since}
        return out

    return JSONResponse(
        page
        | {
            "money": await floor.db.read(money),
            "heads": {t: floor.table(t).head for t in played.tables},
        }
    )


@router.get("/ui/clock")
def ui_clock() -> JSONResponse:
    """The server's clock, epoch ms: a countdown's deadline is the server's, and the page
    measures its own clock against this one to draw the ring honestly."""
    return JSONResponse({"now": int(time.time() * 1000)}, headers={"Cache-Control": "no-store"})


@router.get("/ui/room/{table_id}")
async def ui_room(request: Request, table_id: str) -> JSONResponse:
    """What the logged-in player may bet now at the table, spot by spot, as the engine's own
    checks answer (web/betting.py): each spot's accepted range, or its refusal and rule;
    craps: which bets are working. ``known`` is false for a table this process does not
    hold (the page then goes by the view's limits)."""
    from macau_tables.server.errors import ApiError
    from macau_tables.server.session import credential
    from macau_tables.web.betting import bet_room

    floor = getattr(request.app.state, "floor", None)
    actor = floor.tables.get(table_id) if floor is not None else None
    if floor is None or actor is None or actor.engine is None:
        return JSONResponse({"table_id": table_id, "known": False, "spots": {}, "working": {}})
    try:
        user = await floor.authenticate(credential(request.headers, request.method))
    except ApiError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)
    async with actor.lock:
        engine, seq = actor.engine, actor.seq
        room = bet_room(engine, user.name) if user.role == "player" else {"spots": {}}
    return JSONResponse({"table_id": table_id, "known": True, "seq": seq, "working": {}, **room})


def seats_taken(view: dict[str, Any]) -> dict[str, int | None]:
    """How many seats of a table are taken, of how many (``None``: no fixed number), from its
    public view: baccarat's seated players of its seats (BA-15: standing players besides),
    a tile table's places (PG-1.4), craps' players round the table."""
    rules = view.get("rules") or {}
    players = view.get("players")
    seats = view.get("seats")
    if isinstance(players, list) and "seats" in rules:  # baccarat
        taken = sum(1 for p in players if isinstance(p, dict) and p.get("seat") is not None)
        return {"taken": taken, "capacity": int(rules["seats"]), "standing": len(players) - taken}
    if isinstance(seats, dict):  # a tile table: {place: player}
        return {"taken": len(seats), "capacity": int(rules.get("places") or 0) or None}
    if isinstance(seats, list):  # craps
        return {"taken": len(seats), "capacity": None}
    n = len(players) if isinstance(players, list | dict) else 0
    return {"taken": n, "capacity": None}


# --- the craps layout, from the engine's bet kinds -------------------------------------------


def _craps_layout(lang: str) -> list[dict[str, str]]:
    from macau_tables.games.craps import BET_KINDS

    out = []
    for name, kind in BET_KINDS.items():
        label = i18n.craps_bet(name, kind.label, lang)
        out.append({"name": name, "label": label, "rule": kind.rule, "pays": str(kind.pays)})
    return out


# --- tiles: settings and hints ----------------------------------------------------------------


def _tile_game(game: str) -> str:
    if game not in ("paigow", "taiwan"):
        raise HTTPException(422, "game is paigow or taiwan")
    return game


def settings_json(tiles_text: str, game: str) -> dict[str, Any]:
    """The three settings of four tiles (T-4) with each hand's name and rank (T-2); for
    Taiwan Pai Kao, which one TW-6b forces on a player and which he may keep (TW-R1: those
    with the highest back; the dealer re-sets the others)."""
    from macau_tables.tiles import parse_tiles
    from macau_tables.tiles.hands import settings
    from macau_tables.tiles.strategies import follows_forced_rule, forced_setting

    rules = "tw1990" if game == "taiwan" else "pg1985"
    tiles = parse_tiles([tiles_text])
    out = []
    forced = forced_setting(tiles, rules) if game == "taiwan" else None
    for s in settings(tiles, rules):
        out.append(
            {
                "front": _hand_json(s.front),
                "back": _hand_json(s.back),
                "forced": forced is not None
                and (s.front.value.key, s.back.value.key)
                == (forced.front.value.key, forced.back.value.key),
                "keepable": forced is None or follows_forced_rule(s, tiles, rules),
            }
        )
    return {"game": game, "tiles": [str(t) for t in tiles], "settings": out}


def _hand_json(hand: Any) -> dict[str, Any]:
    v = hand.value
    return {
        "tiles": [str(t) for t in hand.tiles],
        "name": v.name,
        "english": v.english,
        "rank": hand.rank,
    }


@router.get("/ui/settings")
def ui_settings(tiles: Annotated[str, Query(max_length=80)], game: str = "paigow") -> JSONResponse:
    try:
        return JSONResponse(settings_json(tiles, _tile_game(game)))
    except MacauTablesError as exc:
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=422)


@router.get("/ui/hint", response_class=HTMLResponse)
def ui_hint(
    request: Request,
    tiles: Annotated[str, Query(max_length=80)],
    game: str = "paigow",
    side: str = "player",
) -> HTMLResponse:
    from macau_tables.analysis.par import percent
    from macau_tables.analysis.tiles import hint
    from macau_tables.tiles import parse_tiles

    lang = _lang(request)

    def pc(x: Any, places: int) -> str:  # a percentage in the page's language
        return i18n.decimal(percent(x, places), lang)

    try:
        parsed = parse_tiles([tiles])
        rows = hint(parsed, game=_tile_game(game), as_="banker" if side == "banker" else "player")
    except MacauTablesError as exc:
        return HTMLResponse(f'<p class="error" role="alert">{_esc(str(exc))}</p>', 422)
    return HTMLResponse(
        _env.get_template("_hint.html").render(
            t=lambda key: i18n.t(key, lang),
            rows=[
                {
                    "front": _hand_json(r.setting.front),
                    "back": _hand_json(r.setting.back),
                    "ev": i18n.decimal(f"{float(r.ev):+.4f}", lang),
                    "exact": f"{r.ev.numerator}/{r.ev.denominator}",
                    "win": pc(r.p_win, 2),
                    "loss": pc(r.p_loss, 2),
                    "push": pc(r.p_push, 2),
                }
                for r in rows
            ],
            lang=lang,
        )
    )


def _esc(text: str) -> str:
    import html

    return html.escape(text)


# --- PAR sheets -------------------------------------------------------------------------------


def par_options(game: str, params: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The rule-set options the PAR viewer accepts for ``game``, normalised (cache key)."""
    allowed = {
        "baccarat": {"decks": "8", "commission": "5%", "no_commission": "false"},
        "craps": {"odds_cap": "winnings"},
        "paigow": {
            "commission": "4%",
            "banker_strategy": "house-way",
            "player_strategy": "house-way",
        },
        "taiwan": {"commission": "5%", "banker_strategy": "house-way"},
    }[game]
    return tuple((k, params.get(k) or v) for k, v in allowed.items())


@functools.lru_cache(maxsize=32)
def par_sheet(game: str, options: tuple[tuple[str, str], ...]) -> Any:
    """The exact PAR sheet of ``game`` under ``options`` (cached: tile sheets take seconds)."""
    from macau_tables.core.money import rate

    o = dict(options)
    if game == "baccarat":
        from macau_tables.analysis.baccarat import baccarat_par
        from macau_tables.games.baccarat import BaccaratRules

        if not o["decks"].isdigit():
            raise HTTPException(422, "decks is a whole number, 6 to 12 (BA-1)")
        rules = BaccaratRules(
            decks=int(o["decks"]),
            commission=rate(o["commission"]),
            no_commission=o["no_commission"] == "true",
        )
        return baccarat_par(rules)
    if game == "craps":
        from macau_tables.analysis.craps import craps_par
        from macau_tables.games.craps import CrapsRules

        if o["odds_cap"] not in ("winnings", "stake"):
            raise HTTPException(422, "odds_cap is winnings or stake (CR-2.2)")
        return craps_par(CrapsRules(odds_cap=o["odds_cap"]))  # type: ignore[arg-type]
    from macau_tables.analysis.tiles import paigow_par, taiwan_par

    c: Fraction = rate(o["commission"])
    if game == "paigow":
        return paigow_par(o["player_strategy"], o["banker_strategy"], commission=c)
    return taiwan_par(o["banker_strategy"], commission=c)


@router.get("/ui/par/{game}", response_class=HTMLResponse)
def ui_par(request: Request, game: str) -> HTMLResponse:
    from macau_tables.analysis.par import percent
    from macau_tables.analysis.report import extras_text, win_lose_push

    if game not in GAMES:
        raise HTTPException(404, f"no game {game!r}")
    lang = _lang(request)

    def pc(x: Any, places: int) -> str:  # a percentage in the page's language
        return i18n.decimal(percent(x, places), lang)

    try:
        sheet = par_sheet(game, par_options(game, dict(request.query_params)))
    except MacauTablesError as exc:
        return HTMLResponse(f'<p class="error" role="alert">{_esc(str(exc))}</p>', 422)
    lines = []
    for b in sheet.lines:
        w, lo, pu = win_lose_push(b)
        lines.append(
            {
                "name": i18n.par_bet_name(game, b.name, lang),
                "rule": b.rule or "",
                "pays": b.pays or "",
                "win": pc(w, 4),
                "lose": pc(lo, 4),
                "push": pc(pu, 4),
                "edge": pc(b.house_edge, 4),
                "edge_exact": f"{b.house_edge.numerator}/{b.house_edge.denominator}",
                "std": i18n.decimal(f"{b.std_dev:.4f}", lang),
                "more": extras_text(b),
                "outcomes": [
                    {
                        "label": o.label,
                        "net": str(o.net),
                        "p": pc(o.probability, 4),
                        "width": float(o.probability) * 100,
                    }
                    for o in b.outcomes
                ],
            }
        )
    return HTMLResponse(
        _env.get_template("_par_sheet.html").render(
            t=lambda key: i18n.t(key, lang),
            sheet=sheet,
            lines=lines,
            lang=lang,
            options=", ".join(f"{k} {v}" for k, v in sheet.options.items()),
        )
    )


# --- static files -----------------------------------------------------------------------------


@router.get("/static/{path:path}")
def static(path: str) -> Response:
    """The UI's CSS, ES modules and vendored scripts (a route, so ``include_router`` brings
    it along; nothing outside ``static/`` is reachable)."""
    file = (STATIC / path).resolve()
    if not file.is_file() or not file.is_relative_to(STATIC.resolve()):
        raise HTTPException(404, "no such file")
    media = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
    return FileResponse(
        file, media_type=media or "application/octet-stream", headers={"Cache-Control": "no-cache"}
    )
