"""One secondary index for the queue's processes, over a generated `wake_at`.

The new index comes first and the old ones go after it, so the claim is never without one.
On MariaDB the VIRTUAL column is added instantly and the index built in place while the
table stays writable (a STORED column would copy the table, writes waiting).
"""

from django.db import migrations, models


def drop_dlq_index(apps, schema_editor) -> None:
    """Drop jobs_dlq_idx with plain DDL: on MySQL Django's RemoveIndex would first build a
    tenant_id index of its own (it keeps one for every foreign key, constraint or not)."""
    quote = schema_editor.quote_name
    schema_editor.execute(
        schema_editor.sql_delete_index % {"name": quote("jobs_dlq_idx"), "table": quote("jobs")}
    )


def add_dlq_index(apps, schema_editor) -> None:
    index = models.Index(fields=["tenant", "status"], name="jobs_dlq_idx")
    schema_editor.add_index(apps.get_model("jobs", "Job"), index)


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
                db_persist=False,
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
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.RemoveIndex(model_name="job", name="jobs_dlq_idx")],
            database_operations=[
                migrations.RunPython(drop_dlq_index, add_dlq_index, atomic=False),
            ],
        ),
    ]
