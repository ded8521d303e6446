from django.db import migrations, models


class Migration(migrations.Migration):
    """An index only: InnoDB builds it online, old processes keep working meanwhile."""

    dependencies = [
        ("tasks", "0014_flows"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="task",
            index=models.Index(fields=["tenant", "name"], name="tasks_tenant_name_idx"),
        ),
    ]
