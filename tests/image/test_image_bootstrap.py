"""The bootstrap step of docker-compose.yml and the README, with the image's own commands:
the first operator (createsuperuser) logs into the console served by the image's API. The
first tenant and its token (create_tenant, issue_token) are the `tenant_token` fixture."""

import re
import secrets

import requests

from tests.image.podman import run_once


def test_the_first_operator_made_in_the_image_logs_into_the_console(api_url, env_file):
    password = secrets.token_urlsafe(16)
    made = run_once(
        ["python", "manage.py", "createsuperuser", "--noinput", "--username", "ops",
         "--email", "ops@example.com"],
        env_file, env={"DJANGO_SUPERUSER_PASSWORD": password},
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    session = requests.Session()
    form = session.get(f"{api_url}/admin/login/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    login = session.post(
        f"{api_url}/admin/login/?next=/admin/",
        data={"csrfmiddlewaretoken": token, "username": "ops", "password": password},
        timeout=10,
    )
    # Logged in: taken past the login form to the console, which offers to log out.
    assert login.status_code == 200 and "/admin/login/" not in login.url, login.url
    assert 'action="/admin/logout/"' in login.text
