"""Logins: wrong passwords are throttled per account and per client address with an
exponential back-off (429 ``SRV-THROTTLE`` with ``Retry-After``, on the server's clock,
replaced here by one the test moves); an unknown name costs the same argon2 work as a
wrong password; weak passwords are refused when a user is created or changes his own."""

from __future__ import annotations

from typing import Any

from macau_tables.server.logins import LoginThrottle
from tests.reliability.conftest import Srv


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _clocked(srv: Srv) -> Clock:
    clock = Clock()
    srv.floor.throttle = LoginThrottle(clock=clock)
    return clock


def _login(srv: Srv, name: str, password: str) -> Any:
    return srv.client.post("/auth/login", json={"name": name, "password": password})


def test_wrong_passwords_close_the_account_with_a_growing_back_off(lite: Srv) -> None:
    clock = _clocked(lite)
    right = lite.creds["alice"]
    statuses = [_login(lite, "alice", "not-her-password").status_code for _ in range(60)]
    # the probe's attack: 60 guesses at once, then the right password; only 5 are verified
    assert statuses[:5] == [401] * 5
    assert set(statuses[5:]) == {429}
    r = _login(lite, "alice", right)
    assert r.status_code == 429, r.text
    assert r.json()["rule"] == "SRV-THROTTLE" and r.json()["error"] == "too_many_attempts"
    assert r.headers["Retry-After"] == "1"
    clock.now += 1.0
    assert _login(lite, "alice", "not-her-password").status_code == 401  # the 6th: 2 s
    r = _login(lite, "alice", right)
    assert r.status_code == 429 and r.headers["Retry-After"] == "2"
    clock.now += 1.0
    assert _login(lite, "alice", right).headers["Retry-After"] == "1"
    clock.now += 1.0
    assert _login(lite, "alice", "not-her-password").status_code == 401  # the 7th: 4 s
    assert _login(lite, "alice", right).headers["Retry-After"] == "4"
    clock.now += 4.0
    assert _login(lite, "alice", right).status_code == 200
    # the right password: the account starts afresh (4 free failures again)
    assert [_login(lite, "alice", "nope-nope-nope").status_code for _ in range(4)] == [401] * 4
    # another account is not affected
    assert _login(lite, "bob", lite.creds["bob"]).status_code == 200


def test_an_address_guessing_at_many_names_is_closed(lite: Srv) -> None:
    clock = _clocked(lite)
    # one guess at each of 20 names (no account reaches its own limit) from one address
    statuses = [_login(lite, f"user{i}", "Password123").status_code for i in range(20)]
    assert statuses == [401] * 20
    r = _login(lite, "bob", lite.creds["bob"])
    assert r.status_code == 429, r.text
    assert "from this address" in r.json()["message"] and r.headers["Retry-After"] == "1"
    # another address logs in meanwhile (the floor's own entry, as the route calls it)
    portal: Any = lite.client.portal
    reply = portal.call(lite.floor.login, "bob", lite.creds["bob"], "198.51.100.7")
    assert reply["name"] == "bob"
    clock.now += 1.0
    assert _login(lite, "bob", lite.creds["bob"]).status_code == 200


def test_an_unknown_name_is_verified_as_a_wrong_password_is(lite: Srv) -> None:
    """Equal work: the unknown name's login verifies the password against a hash made
    with the same argon2 parameters as the users' (the probe timed 28 ms against 105)."""
    passwords = lite.floor.passwords
    calls: list[str] = []
    verify = passwords.verify

    def counted(hashed: str, password: str) -> bool:
        calls.append(hashed)
        return verify(hashed, password)

    passwords.verify = counted  # type: ignore[method-assign]
    assert _login(lite, "nobody-at-all", "some-password").status_code == 401
    assert _login(lite, "alice", "some-password").status_code == 401
    assert len(calls) == 2
    unknown, known = calls

    def params(h: str) -> str:
        return h.rsplit("$", 2)[0]  # $argon2id$v=19$m=…,t=…,p=…

    assert unknown.startswith("$argon2id$") and params(unknown) == params(known)
    assert unknown != known


def _add_user(srv: Srv, name: str, password: str) -> Any:
    return srv.client.post(
        "/users",
        json={"name": name, "role": "player", "password": password},
        headers=srv.headers("supervisor"),
    )


def test_weak_passwords_are_refused(lite: Srv) -> None:
    for weak in ("password", "short-pw1", "password1234", "Qwertyuiop", "newbie-here"):
        r = _add_user(lite, "newbie-here", weak)
        assert r.status_code == 422, (weak, r.text)
        assert r.json()["rule"] == "SRV-PASSWORD", (weak, r.text)
    r = _add_user(lite, "newbie-here", "tiles-and-dice-77")
    assert r.status_code == 200, r.text
    assert _login(lite, "newbie-here", "tiles-and-dice-77").status_code == 200


def test_a_changed_password_follows_the_policy(lite: Srv) -> None:
    old = lite.creds["alice"]
    h = lite.headers("alice")

    def change(old_password: str, new_password: str) -> Any:
        body = {"old_password": old_password, "new_password": new_password}
        return lite.client.post("/auth/password", json=body, headers=h)

    r = change(old, "password")
    assert r.status_code == 422 and r.json()["rule"] == "SRV-PASSWORD", r.text
    r = change("not-the-old-one", "a-good-long-phrase")
    assert r.status_code == 401, r.text
    r = change(old, "a-good-long-phrase")
    assert r.status_code == 200, r.text
    assert _login(lite, "alice", old).status_code == 401
    assert _login(lite, "alice", "a-good-long-phrase").status_code == 200
