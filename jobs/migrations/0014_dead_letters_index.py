"""The DLQ's own index: a VIRTUAL column (added instantly on MariaDB) that holds the tenant
only while the row is one of its dead runs, and an index over it and the id, built in place
while the table stays writable. It only adds: an older release's inserts leave it out."""

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
        migrations.AddIndex(
            model_name='job',
            index=models.Index(fields=['dead_tenant', 'id'], name='jobs_dead_letters_idx'),
        ),
    ]
