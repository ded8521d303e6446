"""The data migration that gives each existing secret the hosts of the tasks using it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scheduler_site.ids import new_id

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def migrated_back_to_the_latest():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migration_and_parent() -> tuple[tuple[str, str], tuple[str, str]]:
    """Found by name, so a renumbered migration is still the one tested."""
    graph = MigrationExecutor(connection).loader.graph
    (target,) = [key for key in graph.nodes if key[0] == "tasks" and "allowed_hosts" in key[1]]
    (parent,) = [node.key for node in graph.node_map[target].parents if node.key[0] == "tasks"]
    return target, parent


def migrate(to: tuple[str, str]):
    executor = MigrationExecutor(connection)
    executor.migrate([to])
    return MigrationExecutor(connection).loader.project_state([to]).apps


def add_task(apps, tenant, url: str, secret_ref: str | None, status: str = "active") -> None:
    apps.get_model("tasks", "Task").objects.create(
        id=new_id(), tenant=tenant, url=url, cron="0 3 * * *", secret_ref=secret_ref, status=status
    )


def test_each_secret_gets_the_hosts_of_the_live_tasks_that_use_it():
    target, parent = migration_and_parent()
    old = migrate(parent)
    Tenant, Secret = old.get_model("tasks", "Tenant"), old.get_model("tasks", "TenantSecret")
    acme, globex = Tenant.objects.create(name="acme"), Tenant.objects.create(name="globex")
    for tenant in (acme, globex):
        Secret.objects.create(id=new_id(), tenant=tenant, name="crm", encrypted_value="x")
    Secret.objects.create(id=new_id(), tenant=acme, name="unused", encrypted_value="x")
    add_task(old, acme, "https://API.example.com./a", "crm")
    add_task(old, acme, "https://93.184.216.34:443/b", "crm", status="paused")
    add_task(old, acme, "https://gone.example.com/c", "crm", status="deleted")
    add_task(old, acme, "https://other.example.com/d", None)
    add_task(old, globex, "https://globex.example.com/e", "crm")
    new = migrate(target)
    hosts = {
        (secret.tenant.name, secret.name): secret.allowed_hosts
        for secret in new.get_model("tasks", "TenantSecret").objects.select_related("tenant")
    }
    assert hosts == {
        ("acme", "crm"): ["93.184.216.34", "api.example.com"],
        ("acme", "unused"): [],
        ("globex", "crm"): ["globex.example.com"],
    }
