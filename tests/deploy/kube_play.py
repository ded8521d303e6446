"""The manifests' pods made playable by `podman kube play` on this machine (the migration
Job's as a Pod): one replica each, on the host's network (to reach the host's MariaDB and
Redis on 127.0.0.1), on the given ports, with the ConfigMap's settings and the Secret's
values as ConfigMaps of the same names (podman reads a Secret from its own store, not from
the YAML), the history in SQL.
Everything else (the image, its command, the init container, the user, the read-only root,
/tmp's emptyDir) is the manifests' own."""

from __future__ import annotations

import copy

import yaml

from tests.deploy.kubernetes_manifests import main_container, of_kind, option


def config_map(name: str, data: dict[str, str]) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "at-cron"},
        "data": data,
    }


def playable(deployment: dict, ports: dict[str, int]) -> dict:
    """The Deployment on the host's network on the free ports given (by the manifest's
    port name), its Secret read as a ConfigMap."""
    played = copy.deepcopy(deployment)
    played["spec"]["replicas"] = 1
    pod = played["spec"]["template"]["spec"]
    pod["hostNetwork"] = True
    # podman 4.3 restarts an init container that ended under "Always" (a Deployment's only
    # policy), then fails to remove it; OnFailure keeps the same meaning for a crash.
    pod["restartPolicy"] = "OnFailure"
    for container in pod.get("initContainers", []) + pod["containers"]:
        container["envFrom"] = [
            {"configMapRef": ref.get("configMapRef") or ref["secretRef"]}
            for ref in container["envFrom"]
        ]
    container = main_container(played)
    command = container.get("command")
    # On the host's network a port needs no mapping (podman refuses one there); the probes
    # name the number instead.
    container.pop("ports", None)
    for probe in ("livenessProbe", "readinessProbe"):
        if probe in container:
            container[probe]["httpGet"]["port"] = ports[container[probe]["httpGet"]["port"]]
    if command and option(command, "--metrics-port"):
        command[command.index("--metrics-port") + 1] = str(ports["metrics"])
    if "http" in ports:
        # gunicorn behind the pod's nginx too: its 127.0.0.1:8010 is the host's here.
        container["env"] = [
            {"name": "PORT", "value": str(ports["http"])},
            {"name": "GUNICORN_BIND", "value": f"127.0.0.1:{ports['gunicorn']}"},
        ]
    return played


def job_pod(job: dict) -> dict:
    """The Job's pod as a Pod of the same name (podman 4.3 plays no Job), run once on the
    host's network, its Secret read as a ConfigMap."""
    pod = copy.deepcopy(job["spec"]["template"]["spec"])
    pod["hostNetwork"] = True
    pod["restartPolicy"] = "Never"  # a failure is the test's to see, not to retry
    for container in pod.get("initContainers", []) + pod["containers"]:
        container["envFrom"] = [
            {"configMapRef": ref.get("configMapRef") or ref["secretRef"]}
            for ref in container["envFrom"]
        ]
    metadata = {key: job["metadata"][key] for key in ("name", "namespace", "labels")}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": pod}


def play_yaml(
    names: list[str],
    ports: dict[str, dict[str, int]],
    settings: dict,
    keys: dict,
    jobs: tuple[str, ...] = (),
) -> str:
    config = dict(of_kind("ConfigMap")["scheduler-config"]["data"], **settings)
    deployments = of_kind("Deployment")
    documents = [config_map("scheduler-config", config), config_map("scheduler-keys", keys)]
    documents += [job_pod(of_kind("Job")[name]) for name in jobs]
    documents += [playable(deployments[name], ports[name]) for name in names]
    return yaml.safe_dump_all(documents, sort_keys=False)
