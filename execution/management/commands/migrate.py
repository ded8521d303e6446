"""Django's migrate, without the connection's read and write timeouts.

DATABASE_READ_TIMEOUT_SECONDS (60 s) drops a statement whose server stops answering so a
long-running process reconnects to a promoted replica. A migration is the one legitimate
statement that runs longer: an ALTER TABLE on a big jobs table takes minutes to hours, or
waits on a metadata lock behind a live process's transaction. Cut at 60 s, the client loses
its connection while the server goes on, so the schema changes but the migration is never
recorded and the next `migrate` fails on a column that already exists. An operator runs
migrate by hand or as a Job and watches it; it has no loop to reconnect anyway. Its lock
waits are the server's own too, as they were before the processes' were bounded."""

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

from scheduler_site.database import UTC_SESSION

UNBOUNDED = ("read_timeout", "write_timeout")


class Command(DjangoMigrate):
    def handle(self, *args, **options):
        mysql = [c for c in connections.all() if c.vendor == "mysql"]
        # The options are read when a connection opens: each is closed before and after,
        # and the timeouts come back for a process that goes on (call_command in a bench).
        saved = [without_timeouts(connection) for connection in mysql]
        try:
            return super().handle(*args, **options)
        finally:
            for connection, timeouts in zip(mysql, saved, strict=True):
                connection.close()
                connection.settings_dict["OPTIONS"].update(timeouts)


def without_timeouts(connection) -> dict:
    connection.close()
    opts = connection.settings_dict["OPTIONS"]
    saved = {option: opts.pop(option) for option in UNBOUNDED if option in opts}
    saved["init_command"] = opts.get("init_command", UTC_SESSION)
    opts["init_command"] = UTC_SESSION
    return saved
