from django.db import migrations, models


def suspend_tasks_of_stopped_tenants(apps, schema_editor):
    """The tick no longer leaves stopped tenants out by a NOT IN: their active tasks leave
    its range here, as tenant_deactivate does from now on."""
    Task = apps.get_model("tasks", "Task")
    Task.objects.filter(tenant__is_active=False, status="active").update(status="suspended")


def activate_suspended_tasks(apps, schema_editor):
    Task = apps.get_model("tasks", "Task")
    Task.objects.filter(status="suspended").update(status="active")


class Migration(migrations.Migration):
    dependencies = [
        ("tasks", "0006_task_purge_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="task",
            name="status",
            field=models.CharField(
                choices=[
                    ("active", "Active"),
                    ("paused", "Paused"),
                    ("completed", "Completed"),
                    ("deleted", "Deleted"),
                    ("suspended", "Suspended"),
                ],
                default="active",
                max_length=16,
            ),
        ),
        migrations.RunPython(suspend_tasks_of_stopped_tenants, activate_suspended_tasks),
    ]
