"""The compose file's nginx and API, run here for real (nginx and gunicorn, no Docker):
nginx ends TLS with the certificate it is given, and the API with the compose file's
HTTPS=true answers over it, with HSTS, trusting nginx's X-Forwarded-Proto."""

import subprocess
from datetime import UTC, datetime, timedelta
from ipaddress import IPv4Address
from pathlib import Path

import pytest
import requests
import yaml
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.processes import ROOT, ApiServer, free_port, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def self_signed(folder: Path, cert_name: str, key_name: str) -> Path:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(IPv4Address("127.0.0.1"))]), False
        )
        .sign(key, hashes.SHA256())
    )
    (folder / cert_name).write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / key_name).write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return folder / cert_name


@pytest.fixture
def api(services, tmp_path):
    server = ApiServer(
        tmp_path / "api.log", workers=1, env={"HTTPS": services["api"]["environment"]["HTTPS"]}
    )
    yield server
    server.stop()


@pytest.fixture
def tls_proxy(services, api, tmp_path):
    """The compose file's nginx command and environment, its mount in a folder of this test."""
    nginx = services["nginx"]
    env = {name: str(tmp_path / Path(path).name) for name, path in nginx["environment"].items()}
    cert = self_signed(tmp_path, Path(env["TLS_CERT"]).name, Path(env["TLS_KEY"]).name)
    port = free_port()
    script, _, _, _ = nginx["command"]
    log = open(tmp_path / "nginx.out", "wb")  # noqa: SIM115 - closed below
    popen = subprocess.Popen(
        [script, f"127.0.0.1:{port}", f"127.0.0.1:{api.port}", str(tmp_path / "nginx")],
        cwd=ROOT,
        env={"PATH": "/usr/sbin:/usr/bin:/bin", **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"https://127.0.0.1:{port}"

    def answers() -> bool:
        assert popen.poll() is None, (tmp_path / "nginx.out").read_text()
        try:
            return requests.get(f"{url}/healthz", verify=cert, timeout=2).status_code == 200
        except requests.RequestException:
            return False

    try:
        wait_until(answers, timeout=30, message="nginx did not answer over TLS")
        yield url, cert
    finally:
        popen.terminate()
        popen.wait(timeout=20)
        log.close()


def test_the_admin_answers_over_tls_with_hsts_and_no_redirect(tls_proxy):
    url, cert = tls_proxy
    page = requests.get(f"{url}/admin/login/", verify=cert, timeout=10, allow_redirects=False)
    assert page.status_code == 200
    assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "Secure" in page.headers["Set-Cookie"]  # the CSRF cookie


def test_plain_http_to_the_api_is_sent_to_https(services, api):
    response = requests.get(api.url("/admin/login/"), timeout=10, allow_redirects=False)
    assert response.status_code == 301
    assert response.headers["Location"].startswith("https://")
