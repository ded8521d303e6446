import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from history.cassandra_schema import schema_statements
from history.keyspace_replication import replication_mismatch
from history.records import HistoryUnavailable
from scheduler_site.cassandra_env import parse_replication


def replication_option(text: str | None) -> dict:
    """--replication as CASSANDRA_REPLICATION writes it, or a CQL map as JSON; else the
    setting's."""
    if not text:
        return settings.CASSANDRA_REPLICATION
    try:
        return json.loads(text) if text.lstrip().startswith("{") else parse_replication(text)
    except ValueError as exc:
        raise CommandError(f"--replication: {exc}") from exc


class Command(BaseCommand):
    help = "Create the Cassandra keyspace and tables of the job history (or print the CQL)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--print",
            action="store_true",
            dest="print_only",
            help="print the CQL instead of applying it",
        )
        parser.add_argument(
            "--replication",
            default=None,
            help="the keyspace's replication if not CASSANDRA_REPLICATION's, in its syntax "
            "(NetworkTopologyStrategy:dc1=3) or as a JSON map",
        )

    def handle(self, *args, print_only, replication, **options):
        replication_map = replication_option(replication)
        keyspace = settings.CASSANDRA_KEYSPACE
        if print_only:
            for statement in schema_statements(keyspace, replication_map):
                self.stdout.write(statement.strip() + ";\n")
            return
        if not settings.CASSANDRA_HOSTS:
            raise CommandError("set CASSANDRA_HOSTS (comma separated) to reach the cluster")
        from history.cassandra_store import CassandraHistoryStore

        try:
            store = CassandraHistoryStore.connect(
                settings.CASSANDRA_HOSTS, keyspace, port=settings.CASSANDRA_PORT
            )
        except HistoryUnavailable as exc:
            raise CommandError(str(exc)) from exc
        try:
            store.create_schema(replication_map)
            mismatch = replication_mismatch(store.session, keyspace, replication_map)
        except HistoryUnavailable as exc:
            raise CommandError(str(exc)) from exc
        finally:
            store.close()
        if mismatch:
            raise CommandError(mismatch)
        self.stdout.write(f"keyspace {keyspace} ready on {', '.join(settings.CASSANDRA_HOSTS)}")
