"""deploy/kubernetes/: valid against the Kubernetes schemas (kubeconform -strict, none
skipped), and saying what the code does: a Deployment per process, the executor's grace
inside the pod's, the API's probes, the image's user, settings the README documents, an
autoscaler on a metric the queue really serves.

kubeconform and the schemas come from scripts/ensure_kubeconform.sh (built once, cached):
without them these tests fail, naming the script."""

from __future__ import annotations

import re
import subprocess

import pytest
import yaml

from execution.executor_process import FINAL_FLUSH_SECONDS
from execution.management.commands.run_executor import Command as RunExecutor
from execution.metrics import QueueCollector, QueueReading
from tests.deploy.kubernetes_manifests import (
    IMAGE,
    MANIFESTS,
    containers,
    external_metric,
    main_container,
    objects,
    of_kind,
    option,
    pod_specs,
)
from tests.processes import ROOT
from tests.test_env_table import variables_documented

ENSURE = "scripts/ensure_kubeconform.sh"
SUMMARY = re.compile(
    r"Summary: (\d+) resources? found .* "
    r"Valid: (\d+), Invalid: (\d+), Errors: (\d+), Skipped: (\d+)"
)
PROCESSES = {
    "scheduler-scheduler": "run_scheduler",
    "scheduler-executor": "run_executor",
    "scheduler-reconciler": "run_reconciler",
    "scheduler-archiver": "run_archiver",
    "scheduler-queue-metrics": "serve_metrics",
}
SECRET_ENV = {
    "DATABASE_URL": "mysql://scheduler:p%40ss@mariadb:3306/scheduler",
    "SECRET_KEY": "k" * 10 + "#: '\"",
    "JWT_SIGNING_KEY": "j" * 60,
    "SECRETS_ENCRYPTION_KEYS": "a=,b=",
}


@pytest.fixture(scope="module")
def kubeconform() -> list[str]:
    found = subprocess.run(
        [ENSURE], cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False
    )
    assert found.returncode == 0, f"{ENSURE} gave no kubeconform:\n{found.stderr[-3000:]}"
    binary, schemas = found.stdout.strip().splitlines()[-2:]
    return [binary, "-strict", "-summary", "-schema-location", schemas]


def secret_yaml() -> str:
    filled = subprocess.run(
        ["scripts/kube_secret.py"],
        cwd=ROOT,
        env=SECRET_ENV,
        capture_output=True,
        text=True,
        check=True,
    )
    return filled.stdout


def validate(kubeconform: list[str], *paths: str, stdin: str | None = None) -> tuple[str, tuple]:
    run = subprocess.run(
        [*kubeconform, *paths], input=stdin, capture_output=True, text=True, timeout=300
    )
    match = SUMMARY.search(run.stdout)
    assert match, run.stdout + run.stderr
    return run.stdout, tuple(int(figure) for figure in match.groups())


def test_kubeconform_finds_every_manifest_valid_and_none_skipped(kubeconform):
    output, (found, valid, invalid, errors, skipped) = validate(kubeconform, str(MANIFESTS))
    assert (invalid, errors, skipped) == (0, 0, 0), output
    assert found == valid == len(objects())


def test_kubeconform_finds_the_filled_secret_valid(kubeconform):
    output, figures = validate(kubeconform, "-", stdin=secret_yaml())
    assert figures == (1, 1, 0, 0, 0), output


def test_kubeconform_refuses_a_field_kubernetes_does_not_have(kubeconform, tmp_path):
    # A guard on the schemas: strict ones, so a misspelt field is an error, not ignored.
    wrong = (
        (MANIFESTS / "executor.yaml")
        .read_text()
        .replace("terminationGracePeriodSeconds", "terminationGraceSeconds")
    )
    (tmp_path / "executor.yaml").write_text(wrong)
    output, (_, _, invalid, _, _) = validate(kubeconform, str(tmp_path))
    assert invalid == 1, output


def test_every_process_has_a_deployment_running_its_command():
    deployments = of_kind("Deployment")
    for name, command in PROCESSES.items():
        assert main_container(deployments[name])["command"][:3] == ["python", "manage.py", command]
    # The API runs the image's own command (nginx in front of gunicorn).
    assert "command" not in main_container(deployments["scheduler-api"])


def test_the_api_is_behind_a_service_on_its_port():
    service = of_kind("Service")["scheduler-api"]
    api = of_kind("Deployment")["scheduler-api"]
    assert service["spec"]["selector"] == api["spec"]["selector"]["matchLabels"]
    port_names = {port["name"] for port in main_container(api)["ports"]}
    assert {port["targetPort"] for port in service["spec"]["ports"]} <= port_names


def test_the_executors_pod_outlasts_the_executors_stop():
    executor = of_kind("Deployment")["scheduler-executor"]
    command = main_container(executor)["command"]
    default = RunExecutor().create_parser("manage.py", "run_executor").get_default("grace")
    grace = float(option(command, "--grace") or default)
    # on_stop: the calls get the grace from the signal, then the last results their flush.
    needed = grace + FINAL_FLUSH_SECONDS
    assert executor["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] >= needed


def test_the_api_is_alive_on_healthz_and_ready_on_readyz():
    api = main_container(of_kind("Deployment")["scheduler-api"])
    assert api["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz"
    for probe in (api["livenessProbe"], api["readinessProbe"]):
        # The kubelet would send the pod's address as Host, which ALLOWED_HOSTS refuses.
        host = {h["name"]: h["value"] for h in probe["httpGet"]["httpHeaders"]}["Host"]
        allowed = of_kind("ConfigMap")["scheduler-config"]["data"]["ALLOWED_HOSTS"].split(",")
        assert host in allowed


def test_every_loop_process_has_a_liveness_probe_on_its_metrics():
    deployments = of_kind("Deployment")
    for name in PROCESSES:
        container = main_container(deployments[name])
        ports = {port["name"]: port["containerPort"] for port in container["ports"]}
        assert container["livenessProbe"]["httpGet"]["port"] == "metrics"
        assert int(option(container["command"], "--metrics-port")) == ports["metrics"]
        assert option(container["command"], "--metrics-address") == "0.0.0.0"


def test_prometheus_scrapes_the_port_each_pod_serves_its_metrics_on():
    config = of_kind("ConfigMap")["scheduler-config"]["data"]
    for name, deployment in of_kind("Deployment").items():
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        container = main_container(deployment)
        served = option(container.get("command", []), "--metrics-port")
        served = served or config["API_METRICS_PORT"]  # the API's, from gunicorn's master
        assert annotations["prometheus.io/scrape"] == "true", name
        assert annotations["prometheus.io/port"] == served, name
    assert config["API_METRICS_ADDRESS"] == "0.0.0.0"


def test_every_pod_runs_as_the_images_user_on_a_read_only_root():
    for name, pod in pod_specs():
        assert pod["securityContext"]["runAsNonRoot"] is True, name
        assert pod["securityContext"]["runAsUser"] == 10001, name  # the Dockerfile's useradd
        for container in containers(pod):
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True, (name, container["name"])
            assert context["allowPrivilegeEscalation"] is False, (name, container["name"])
            mounts = {mount["mountPath"] for mount in container["volumeMounts"]}
            assert "/tmp" in mounts, (name, container["name"])  # nginx's and gunicorn's files


def test_every_container_runs_the_one_image_with_resources():
    for name, pod in pod_specs():
        for container in containers(pod):
            assert container["image"] == IMAGE, name
            assert {"cpu", "memory"} <= set(container["resources"]["requests"]), name
            assert {"cpu", "memory"} <= set(container["resources"]["limits"]), name


def test_every_setting_given_is_in_the_readmes_configuration_table():
    config = of_kind("ConfigMap")["scheduler-config"]["data"]
    secret_names = set(re.findall(r"\$\{([A-Z_]+)\}", (MANIFESTS / "secret.yaml.in").read_text()))
    direct = {
        variable["name"]
        for _, pod in pod_specs()
        for container in containers(pod)
        for variable in container.get("env", [])
    }
    assert set(config) | secret_names | direct <= variables_documented()
    keys = {"SECRET_KEY", "JWT_SIGNING_KEY", "SECRETS_ENCRYPTION_KEYS", "DATABASE_URL"}
    assert keys <= secret_names


def test_every_pod_takes_the_settings_and_the_keys():
    for name, pod in pod_specs():
        for container in containers(pod):
            sources = container["envFrom"]
            assert {"configMapRef": {"name": "scheduler-config"}} in sources, name
            assert {"secretRef": {"name": "scheduler-keys"}} in sources, name


def test_the_job_migrates_and_every_deployment_waits_for_it():
    job = of_kind("Job")["scheduler-migrate"]
    assert "python manage.py migrate --noinput" in " ".join(main_container(job)["command"])
    for name, deployment in of_kind("Deployment").items():
        waits = deployment["spec"]["template"]["spec"]["initContainers"][0]["command"]
        assert "python manage.py migrate --check" in " ".join(waits), name


def test_disruption_budgets_keep_the_api_and_the_executors_serving():
    budgets = of_kind("PodDisruptionBudget")
    labels = [budget["spec"]["selector"]["matchLabels"] for budget in budgets.values()]
    selected = {label["app.kubernetes.io/name"] for label in labels}
    assert {"scheduler-api", "scheduler-executor"} <= selected


def test_the_autoscaler_scales_the_executors_on_a_metric_the_queue_serves():
    hpa = of_kind("HorizontalPodAutoscaler")["scheduler-executor"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"]["name"] == "scheduler-executor"
    collector = QueueCollector()
    collector.reading = QueueReading(depth=[], due_unclaimed=7, taken_at=0.0)
    served = {family.name: family for family in collector.collect()}
    # serve_metrics (the queue-metrics Deployment) serves QueueCollector's families.
    family = served[external_metric(hpa)]
    assert family.type == "gauge" and family.samples[0].value == 7


def test_the_adapters_rule_serves_the_autoscalers_metric():
    hpa = of_kind("HorizontalPodAutoscaler")["scheduler-executor"]
    name = external_metric(hpa)
    rules = of_kind("ConfigMap")["prometheus-adapter"]["data"]["config.yaml"]
    rule = yaml.safe_load(rules)["externalRules"][0]
    assert rule["seriesQuery"].startswith(name + "{") and rule["name"]["as"] == name


def test_only_gunicorn_is_told_where_the_multiprocess_metrics_go():
    # Set for every process, each management command counts into a folder only gunicorn
    # makes, and dies at its first metric (seen under podman kube play).
    config = of_kind("ConfigMap")["scheduler-config"]["data"]
    assert "PROMETHEUS_MULTIPROC_DIR" not in config
