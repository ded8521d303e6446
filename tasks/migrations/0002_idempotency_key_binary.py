"""Idempotency keys compare byte for byte on MySQL/MariaDB too (SQLite already does):
with the default case-insensitive collation "Key" and "key" would be one key."""

from django.db import migrations


def binary_collation(apps, schema_editor):
    if schema_editor.connection.vendor != "mysql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE tasks MODIFY idempotency_key varchar(255) "
            "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL"
        )


class Migration(migrations.Migration):
    dependencies = [("tasks", "0001_initial")]
    operations = [migrations.RunPython(binary_collation, migrations.RunPython.noop)]
