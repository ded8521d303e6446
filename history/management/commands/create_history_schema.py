import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from history.cassandra_schema import schema_statements
from history.records import HistoryUnavailable


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
            help='a replication map as JSON, e.g. {"class": "NetworkTopologyStrategy", "dc1": 3}',
        )

    def handle(self, *args, print_only, replication, **options):
        replication_map = json.loads(replication) if replication else None
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
            store.create_schema(replication_map)
        except HistoryUnavailable as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"keyspace {keyspace} ready on {', '.join(settings.CASSANDRA_HOSTS)}")
