"""Unit tests for tasks.address_policy (no database, no real DNS)."""

from __future__ import annotations

import pickle
import socket
import sys
import types
from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest

from tasks.address_policy import (
    REFUSED_NETWORKS,
    DestinationNotAllowed,
    EgressPolicy,
    default_policy,
    embedded_ipv4,
    is_public_address,
    parse_literal_host,
    reset_default_policy,
)

# --- helpers ---------------------------------------------------------------


def fake_resolver(answers: dict[str, list[str]]):
    """getaddrinfo look-alike that answers from ``answers`` only."""
    calls: list[str] = []

    def resolve(host, port, *args, **kwargs):
        calls.append(host)
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        result = []
        for text in answers[host]:
            if ":" in text:
                result.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (text, port, 0, 0)))
            else:
                result.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (text, port)))
        return result

    resolve.calls = calls
    return resolve


def no_dns(*args, **kwargs):
    raise AssertionError("resolver must not be called")


def mapped(v4: str) -> IPv6Address:
    return IPv6Address(f"::ffff:{v4}")


def compat(v4: str) -> IPv6Address:
    return IPv6Address(f"::{v4}")


def nat64(v4: str) -> IPv6Address:
    return IPv6Address(f"64:ff9b::{v4}")


def sixtofour(v4: str) -> IPv6Address:
    return IPv6Address((0x2002 << 112) | (int(IPv4Address(v4)) << 80) | 1)


def teredo(v4: str) -> IPv6Address:
    server = int(IPv4Address("65.54.227.120"))
    client = ~int(IPv4Address(v4)) & 0xFFFFFFFF
    return IPv6Address((0x20010000 << 96) | (server << 64) | (0x8000 << 48) | client)


WRAPPERS = [mapped, compat, nat64, sixtofour, teredo]
PRIVATE_INNER = ["127.0.0.1", "10.0.0.1", "169.254.169.254"]

REFUSED_SAMPLES = [
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.254",
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.254",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::7f00:1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "64:ff9b:1::1",
    "100::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:10::1",
    "2001:db8::1",
    "2002:7f00:1::1",
    "2002:a00:1::1",
    "3fff::1",
    "5f00::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fec0::1",
    "ff02::1",
    "4000::1",
    "8000::1",
    "e000::1",
]

PUBLIC_SAMPLES = ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"]

LOOPBACK_SPELLINGS = [
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "0X7F000001",
    "0x7f.0.0.1",
    "0x7f.0x0.0x0.0x1",
    "0177.0.0.1",
    "0177.0000.0000.0001",
    "017700000001",
    "127.1",
    "127.0.1",
    "0x7f.1",
    "127.0.0.1.",
    "[::ffff:127.0.0.1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "１２７．０．０．１",
    "127\u30020\u30020\u30021",
    "%31%32%37.0.0.1",
]

METADATA_SPELLINGS = [
    "169.254.169.254",
    "2852039166",
    "0xa9fea9fe",
    "0xa9.0xfe.0xa9.0xfe",
    "0251.0376.0251.0376",
    "025177524776",
    "169.254.43518",
    "169.16689662",
    "0xa9.254.0251.254",
    "169.254.169.254.",
    "[::ffff:169.254.169.254]",
    "::ffff:a9fe:a9fe",
]


# --- refused ranges ----------------------------------------------------------


@pytest.mark.parametrize("sample", REFUSED_SAMPLES)
def test_refused_sample_is_not_public(sample):
    assert is_public_address(sample) is False


@pytest.mark.parametrize("sample", REFUSED_SAMPLES)
def test_refused_sample_is_refused_on_443(sample):
    assert EgressPolicy().address_allowed(sample, 443) is False


@pytest.mark.parametrize("network", REFUSED_NETWORKS, ids=str)
def test_every_refused_network_has_a_sample(network):
    assert any(
        ip_address(s).version == network.version and ip_address(s) in network
        for s in REFUSED_SAMPLES
    )


@pytest.mark.parametrize("sample", PUBLIC_SAMPLES)
def test_public_sample_is_public(sample):
    assert is_public_address(sample) is True


@pytest.mark.parametrize("port", [80, 443])
@pytest.mark.parametrize("sample", PUBLIC_SAMPLES)
def test_public_sample_allowed_on_web_ports(sample, port):
    assert EgressPolicy().address_allowed(sample, port) is True


def test_public_check_accepts_address_objects():
    assert is_public_address(IPv4Address("8.8.8.8")) is True
    assert is_public_address(IPv6Address("::1")) is False


def test_unparsable_address_is_refused():
    assert is_public_address("not-an-ip") is False
    assert EgressPolicy().address_allowed("not-an-ip", 443) is False


@pytest.mark.parametrize("sample", ["fe80::1%eth0", "fe80::1%2", "2606:4700:4700::1111%eth0"])
def test_scoped_ipv6_is_refused(sample):
    assert is_public_address(sample) is False
    assert EgressPolicy().address_allowed(sample, 443) is False


# --- embedded IPv4 -----------------------------------------------------------


@pytest.mark.parametrize("inner", PRIVATE_INNER)
@pytest.mark.parametrize("wrap", WRAPPERS, ids=lambda w: w.__name__)
def test_embedded_ipv4_unwraps_each_form(wrap, inner):
    assert embedded_ipv4(wrap(inner)) == IPv4Address(inner)


@pytest.mark.parametrize("inner", PRIVATE_INNER)
@pytest.mark.parametrize("wrap", WRAPPERS, ids=lambda w: w.__name__)
def test_wrapped_private_ipv4_is_refused(wrap, inner):
    address = wrap(inner)
    assert is_public_address(address) is False
    assert is_public_address(str(address)) is False
    assert EgressPolicy().address_allowed(address, 443) is False


@pytest.mark.parametrize("sample", ["2606:4700:4700::1111", "::1", "::", "fe80::1"])
def test_embedded_ipv4_is_none_for_plain_ipv6(sample):
    assert embedded_ipv4(IPv6Address(sample)) is None


def test_sixtofour_of_public_ipv4_is_allowed():
    assert embedded_ipv4(IPv6Address("2002:0808:0808::1")) == IPv4Address("8.8.8.8")
    assert is_public_address("2002:0808:0808::1") is True
    assert EgressPolicy().address_allowed("2002:0808:0808::1", 443) is True


def test_mapped_loopback_is_refused_although_not_is_loopback():
    assert IPv6Address("::ffff:127.0.0.1").is_loopback is False
    assert is_public_address("::ffff:127.0.0.1") is False


# --- ports and allow list ----------------------------------------------------


@pytest.mark.parametrize("port", [0, 22, 25, 8080, 8443, 65535, 70000, -1])
def test_public_address_on_other_port_is_refused(port):
    assert EgressPolicy().address_allowed("8.8.8.8", port) is False


@pytest.mark.parametrize("port", [22, 80, 443, 8000, 65535])
def test_allow_list_permits_loopback_on_any_port(port):
    policy = EgressPolicy.from_setting("127.0.0.0/8, ::1/128")
    assert policy.address_allowed("127.0.0.1", port) is True
    assert policy.address_allowed("::1", port) is True


def test_allow_list_does_not_open_other_private_ranges():
    policy = EgressPolicy.from_setting("127.0.0.0/8")
    assert policy.address_allowed("10.0.0.1", 443) is False


def test_allow_list_matches_mapped_ipv6_in_ipv4_form():
    policy = EgressPolicy.from_setting("127.0.0.0/8")
    assert policy.address_allowed("::ffff:127.0.0.1", 9000) is True


def test_from_setting_rejects_bad_cidr_naming_the_entry():
    with pytest.raises(ValueError, match="10.0.0.0/33"):
        EgressPolicy.from_setting("127.0.0.0/8, 10.0.0.0/33")


@pytest.mark.parametrize("value", ["", None, " , ,", ","])
def test_from_setting_empty_gives_empty_allow_list(value):
    assert EgressPolicy.from_setting(value).allow == ()


def test_from_setting_ignores_blank_entries():
    policy = EgressPolicy.from_setting(" 127.0.0.0/8 ,, ::1/128 , ")
    assert [str(n) for n in policy.allow] == ["127.0.0.0/8", "::1/128"]


def test_check_address_raises_when_refused():
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_address("10.0.0.1", 443)


def test_check_address_passes_when_allowed():
    EgressPolicy().check_address("8.8.8.8", 443)


# --- literal hosts -------------------------------------------------------------


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS)
def test_loopback_spelling_parses_to_loopback(host):
    parsed = parse_literal_host(host)
    assert parsed in (IPv4Address("127.0.0.1"), IPv6Address("::ffff:127.0.0.1"))


@pytest.mark.parametrize("host", METADATA_SPELLINGS)
def test_metadata_spelling_parses_to_metadata(host):
    parsed = parse_literal_host(host)
    assert parsed in (
        IPv4Address("169.254.169.254"),
        IPv6Address("::ffff:169.254.169.254"),
    )


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS + METADATA_SPELLINGS)
def test_literal_spelling_refused_by_check_url_host(host):
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host(host, 443, resolve=no_dns)


@pytest.mark.parametrize("host", ["[::1]", "::1", "[fe80::1%25eth0]"])
def test_ipv6_literal_refused_by_check_url_host(host):
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host(host, 443, resolve=no_dns)


def test_bracketed_ipv6_literal_parses():
    assert parse_literal_host("[::1]") == IPv6Address("::1")
    assert parse_literal_host("::1") == IPv6Address("::1")


def test_public_literal_allowed_by_check_url_host():
    EgressPolicy().check_url_host("8.8.8.8", 443, resolve=no_dns)
    EgressPolicy().check_url_host("[2606:4700:4700::1111]", 80, resolve=no_dns)


@pytest.mark.parametrize(
    "host",
    ["example.com", "api.example.com.", "0x7f.example", "127.0.0.1.nip.io", "a1b2.io"],
)
def test_dns_name_is_not_a_literal(host):
    assert parse_literal_host(host) is None


@pytest.mark.parametrize(
    "host",
    [
        "256.0.0.1",
        "1.2.3.4.5",
        "08.0.0.1",
        "0x100.0.0.1",
        "127.16777216",
        "1..1",
        "[127.0.0.1]",
    ],
)
def test_out_of_range_literal_is_not_parsed(host):
    assert parse_literal_host(host) is None


@pytest.mark.parametrize(
    "host", ["256.0.0.1", "1.2.3.4.5", "08.0.0.1", "[127.0.0.1]", "[nope]", ""]
)
def test_malformed_host_refused_without_resolving(host):
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host(host, 443, resolve=no_dns)


# --- names ------------------------------------------------------------------------


def test_name_resolving_to_public_addresses_is_allowed():
    resolve = fake_resolver({"hooks.example.com": ["93.184.216.34", "2606:4700:4700::1111"]})
    EgressPolicy().check_url_host("hooks.example.com", 443, resolve=resolve)
    assert resolve.calls == ["hooks.example.com"]


def test_name_resolving_to_public_and_private_is_refused():
    resolve = fake_resolver({"mixed.example.com": ["93.184.216.34", "10.0.0.5"]})
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host("mixed.example.com", 443, resolve=resolve)


def test_name_resolving_to_scoped_ipv6_answer_is_refused():
    def resolve(host, port, *args, **kwargs):
        sockaddr = ("2606:4700:4700::1111", port, 0, 3)
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", sockaddr)]

    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host("scoped.example", 443, resolve=resolve)


def test_public_name_on_other_port_is_refused():
    resolve = fake_resolver({"hooks.example.com": ["93.184.216.34"]})
    with pytest.raises(DestinationNotAllowed):
        EgressPolicy().check_url_host("hooks.example.com", 8080, resolve=resolve)


@pytest.mark.parametrize(
    "host", ["localhost", "localhost.", "LOCALHOST", "api.localhost", "a.b.localhost."]
)
def test_localhost_name_is_refused_before_resolving(host):
    with pytest.raises(DestinationNotAllowed) as info:
        EgressPolicy().check_url_host(host, 443, resolve=no_dns)
    assert "localhost" in info.value.reason


def test_localhost_allowed_when_allow_list_covers_loopback():
    resolve = fake_resolver({"localhost": ["127.0.0.1", "::1"]})
    policy = EgressPolicy.from_setting("127.0.0.0/8, ::1/128")
    policy.check_url_host("localhost", 8000, resolve=resolve)
    assert resolve.calls == ["localhost"]


def test_unresolvable_name_is_refused():
    with pytest.raises(DestinationNotAllowed) as info:
        EgressPolicy().check_url_host("nx.example.com", 443, resolve=fake_resolver({}))
    assert info.value.reason == "does not resolve"


def test_name_with_no_answers_is_refused():
    with pytest.raises(DestinationNotAllowed) as info:
        EgressPolicy().check_url_host(
            "empty.example.com", 443, resolve=fake_resolver({"empty.example.com": []})
        )
    assert info.value.reason == "does not resolve"


# --- exception -----------------------------------------------------------------------


def test_exception_text_is_generic():
    with pytest.raises(DestinationNotAllowed) as info:
        EgressPolicy().check_address("169.254.169.254", 80)
    assert str(info.value) == "destination not allowed"
    assert "169.254" not in str(info.value)


def test_exception_survives_pickling_with_reason():
    exc = pickle.loads(pickle.dumps(DestinationNotAllowed("secret reason")))
    assert str(exc) == "destination not allowed"
    assert exc.reason == "secret reason"


# --- default policy ---------------------------------------------------------


@pytest.fixture
def fake_settings(monkeypatch):
    settings = types.SimpleNamespace(EGRESS_ALLOW="")
    monkeypatch.setitem(sys.modules, "django.conf", types.SimpleNamespace(settings=settings))
    reset_default_policy()
    yield settings
    reset_default_policy()


def test_default_policy_follows_setting_value(fake_settings):
    assert default_policy().address_allowed("127.0.0.1", 8000) is False
    fake_settings.EGRESS_ALLOW = "127.0.0.0/8"
    assert default_policy().address_allowed("127.0.0.1", 8000) is True


def test_default_policy_is_cached_per_setting_value(fake_settings):
    fake_settings.EGRESS_ALLOW = "127.0.0.0/8"
    assert default_policy() is default_policy()


def test_default_policy_treats_missing_setting_as_empty(fake_settings):
    del fake_settings.EGRESS_ALLOW
    assert default_policy().allow == ()
