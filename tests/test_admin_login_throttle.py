"""The admin's login page in a real Chromium under gunicorn: past a few failures in a window
a username, or an address, is refused even with the right password, saying so."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from console.login_throttle import client_address
from tests.browser import AdminPages
from tests.processes import ApiServer
from tests.test_admin_browser import PASSWORD, chromium  # noqa: F401 - the browser fixture

pytestmark = pytest.mark.django_db(transaction=True)
PER_USER, PER_ADDRESS = 3, 5
THROTTLED = "Too many failed logins"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    limits = {
        "ADMIN_LOGIN_FAILURES_PER_USER": str(PER_USER),
        "ADMIN_LOGIN_FAILURES_PER_ADDRESS": str(PER_ADDRESS),
    }
    with django_db_blocker.unblock():
        api = ApiServer(tmp_path_factory.mktemp("login") / "api.log", workers=1, env=limits)
    yield api
    api.stop()


@pytest.fixture
def login(server, chromium) -> AdminPages:  # noqa: F811 - the imported fixture
    cache.clear()  # the counts of earlier tests and runs
    for name in ("ops", "other"):
        User.objects.create_superuser(name, f"{name}@example.com", PASSWORD)
    yield AdminPages(chromium, server.url(""))
    cache.clear()  # nor do this test's count against the next module's logins


def logged_in(pages: AdminPages) -> bool:
    return not pages.driver.current_url.startswith(pages.base_url + "/admin/login/")


def test_a_username_is_refused_after_too_many_failures(login):
    for _ in range(PER_USER):
        login.log_in("ops", "a wrong password")
        assert "correct username and password" in login.text(".errornote")
    login.log_in("ops", PASSWORD)
    assert THROTTLED in login.text(".errornote") and not logged_in(login)


def test_another_username_still_logs_in_from_the_same_address(login):
    for _ in range(PER_USER):
        login.log_in("ops", "a wrong password")
    login.log_in("other", PASSWORD)
    assert logged_in(login)


def test_an_address_is_refused_after_too_many_failures(login):
    for number in range(PER_ADDRESS):
        login.log_in(f"nobody-{number}", "a wrong password")
    login.log_in("other", PASSWORD)
    assert THROTTLED in login.text(".errornote") and not logged_in(login)


def test_a_good_login_clears_its_usernames_failures(login):
    for _ in range(PER_USER - 1):
        login.log_in("ops", "a wrong password")
    login.log_in("ops", PASSWORD)
    for _ in range(PER_USER - 1):
        login.log_in("ops", "a wrong password")
    login.log_in("ops", PASSWORD)
    assert logged_in(login)


@pytest.mark.parametrize(
    ("hops", "forwarded", "address"),
    [
        (0, "203.0.113.9", "10.0.0.2"),  # no proxy trusted: what a client sends is ignored
        (1, "198.51.100.1, 203.0.113.9", "203.0.113.9"),  # the entry nginx wrote
        (1, "", "10.0.0.2"),
    ],
)
def test_the_address_counted_is_the_one_the_outermost_proxy_saw(
    settings, rf, hops, forwarded, address
):
    settings.PROXY_HOPS = hops
    request = rf.post("/admin/login/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == address
