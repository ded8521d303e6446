"""Flow keys compare exactly on MariaDB/MySQL too, as on SQLite: under the table's
case-insensitive collation `crm` and `CRM` were one row to the database but two keys to
the claim's gate, which then found no flow for one of them and failed the whole claim."""

from django.db import migrations

EXACT = "utf8mb4_bin"
FOLDED = "utf8mb4_unicode_ci"  # the project's tables' collation before


def _collate(collation: str):
    def alter(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "mysql":
            return  # SQLite compares text exactly already
        schema_editor.execute(
            f"ALTER TABLE flows MODIFY `key` varchar(100)"
            f" CHARACTER SET utf8mb4 COLLATE {collation} NOT NULL"
        )

    return alter


class Migration(migrations.Migration):
    dependencies = [("flows", "0001_flows")]

    # DDL: MariaDB commits it at once, so it runs outside a transaction.
    operations = [migrations.RunPython(_collate(EXACT), _collate(FOLDED), atomic=False)]
