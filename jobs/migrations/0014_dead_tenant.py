"""The DLQ's column: VIRTUAL (added instantly on MariaDB), holding the tenant only while the
row is one of its dead runs. Its index is the next migration's: MariaDB commits each DDL
statement by itself, so an index build that failed (a killed migrate pod, a failover) leaves
this one recorded and the next run only builds the index again. It only adds: an older
release's inserts leave it out."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0013_minute_counts'),
        ('tasks', '0015_tasks_tenant_name_idx'),
    ]

    operations = [
        migrations.AddField(
            model_name='job',
            name='dead_tenant',
            field=models.GeneratedField(db_persist=False, expression=models.Case(models.When(models.Q(('status', 'dead'), ('priority__lt', 10)), then=models.F('tenant_id')), default=None), output_field=models.UUIDField(null=True)),
        ),
    ]
