"""What the README's "Upgrades" section promises: a release's migrations only add (tables,
indexes, columns an older process can leave out of its inserts), so the processes of the
release before keep working while the schema moves on. A migration that drops or renames
a column or table, or adds a column an old insert cannot omit, fails here by name."""

from __future__ import annotations

import pytest
from django.db.migrations import operations as ops
from django.db.migrations.loader import MigrationLoader
from django.db.models import GeneratedField

PROJECT_APPS = {"audit", "execution", "flows", "history", "jobs", "tasks", "tenants"}
DESTRUCTIVE = (ops.RemoveField, ops.RenameField, ops.DeleteModel, ops.RenameModel)
# Written before this promise, each noted in the README: upgrading across them is not rolling.
BEFORE_THE_PROMISE = {("tasks", "0004_tenant_quotas"), ("tasks", "0005_secret_allowed_hosts")}


def project_migrations():
    loader = MigrationLoader(None, ignore_no_migrations=True)  # from disk, no database
    for (app, name), migration in sorted(loader.disk_migrations.items()):
        if app in PROJECT_APPS and (app, name) not in BEFORE_THE_PROMISE:
            yield f"{app}.{name}", migration


def omissible(field) -> bool:
    """An insert that does not name the column still succeeds."""
    return field.null or field.has_db_default() or isinstance(field, GeneratedField)


def problems(migration) -> list[str]:
    found = []
    for operation in migration.operations:
        if isinstance(operation, DESTRUCTIVE):
            found.append(f"{type(operation).__name__} {operation.describe()}")
        if isinstance(operation, ops.AddField) and not omissible(operation.field):
            found.append(f"AddField {operation.name}: NOT NULL without db_default")
    return found


@pytest.mark.parametrize("label, migration", list(project_migrations()), ids=lambda v: str(v))
def test_the_migration_only_adds(label, migration):
    assert problems(migration) == [], f"{label} breaks the processes of the release before"
