"""One secondary index for the queue's processes, over a generated `wake_at`.

The new index comes first and the old ones go after it, so the claim is never without one.
"""

from django.db import migrations, models


def drop_tenant_index(apps, schema_editor) -> None:
    """On MySQL, Django recreates a foreign key's own index when the last index leading with
    its column goes (jobs_dlq_idx here), constraint or not: the tenant's readers use
    jobs_wake_idx, so that index goes too."""
    connection = schema_editor.connection
    if connection.vendor != "mysql":
        return
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "jobs")
    for name, info in constraints.items():
        if info["index"] and not info["primary_key"] and info["columns"] == ["tenant_id"]:
            schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(name)} ON jobs")


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0006_run_now"),
        ("tasks", "0004_tenant_quotas"),
    ]

    operations = [
        migrations.AddField(
            model_name="job",
            name="wake_at",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Case(
                    models.When(status__in=["pending", "held"], then=models.F("next_attempt_at")),
                    models.When(status="running", then=models.F("lease_expires_at")),
                    default=models.F("finished_at"),
                ),
                output_field=models.DateTimeField(null=True),
            ),
        ),
        migrations.AddIndex(
            model_name="job",
            index=models.Index(
                fields=["status", "priority", "tenant", "wake_at"], name="jobs_wake_idx"
            ),
        ),
        migrations.RemoveIndex(model_name="job", name="jobs_claim_idx"),
        migrations.RemoveIndex(model_name="job", name="jobs_reconcile_idx"),
        migrations.RemoveIndex(model_name="job", name="jobs_archive_idx"),
        migrations.RemoveIndex(model_name="job", name="jobs_dlq_idx"),
        migrations.RunPython(drop_tenant_index, migrations.RunPython.noop, atomic=False),
    ]
