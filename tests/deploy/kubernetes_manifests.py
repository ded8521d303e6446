"""deploy/kubernetes/ read as YAML: its objects, by kind, and their pods' containers."""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from tests.processes import ROOT

MANIFESTS = ROOT / "deploy" / "kubernetes"
IMAGE = "localhost/at-cron-scheduler:latest"


def objects() -> list[dict]:
    found = []
    for path in sorted(MANIFESTS.rglob("*.yaml")):
        found += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return found


def of_kind(kind: str) -> dict[str, dict]:
    return {obj["metadata"]["name"]: obj for obj in objects() if obj["kind"] == kind}


def pod_specs() -> Iterator[tuple[str, dict]]:
    for obj in objects():
        if obj["kind"] in ("Deployment", "Job"):
            yield obj["metadata"]["name"], obj["spec"]["template"]["spec"]


def containers(pod: dict) -> list[dict]:
    return pod.get("initContainers", []) + pod["containers"]


def main_container(deployment: dict) -> dict:
    return deployment["spec"]["template"]["spec"]["containers"][0]


def option(command: list[str], name: str) -> str | None:
    """The value after `name` in a command line, if it is there."""
    return command[command.index(name) + 1] if name in command else None


def external_metric(hpa: dict) -> str:
    """The name of the one External metric an autoscaler follows."""
    names = [
        m["external"]["metric"]["name"] for m in hpa["spec"]["metrics"] if m["type"] == "External"
    ]
    assert len(names) == 1
    return names[0]
