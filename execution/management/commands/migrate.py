"""Django's migrate, without the connection's read and write timeouts.

DATABASE_READ_TIMEOUT_SECONDS (60 s) drops a statement whose server stops answering so a
long-running process reconnects to a promoted replica. A migration is the one legitimate
statement that runs longer: an ALTER TABLE on a big jobs table takes minutes to hours, or
waits on a metadata lock behind a live process's transaction. Cut at 60 s, the client loses
its connection while the server goes on, so the schema changes but the migration is never
recorded and the next `migrate` fails on a column that already exists. An operator runs
migrate by hand or as a Job and watches it; it has no loop to reconnect anyway."""

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

UNBOUNDED = ("read_timeout", "write_timeout")


class Command(DjangoMigrate):
    def handle(self, *args, **options):
        for connection in connections.all():
            if connection.vendor != "mysql":
                continue
            # The options are read when the connection opens: close any already open.
            connection.close()
            for option in UNBOUNDED:
                connection.settings_dict["OPTIONS"].pop(option, None)
        return super().handle(*args, **options)
