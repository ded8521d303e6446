from django.core.management.base import BaseCommand, CommandError

from tasks.auth import TokenLifetimeRefused, issue_token
from tasks.management.tenant_argument import active_tenant


class Command(BaseCommand):
    help = "Print an access token for a tenant (and nothing else on stdout)."

    def add_arguments(self, parser):
        parser.add_argument("tenant_id")
        parser.add_argument(
            "--ttl", type=int, default=None, help="lifetime in seconds (at most a year)"
        )

    def handle(self, *args, tenant_id: str, ttl: int | None, **options):
        tenant = active_tenant(tenant_id)
        try:
            self.stdout.write(issue_token(tenant, ttl))
        except TokenLifetimeRefused as exc:
            raise CommandError(f"--ttl: {exc}") from exc
