import uuid

from django.core.management.base import BaseCommand, CommandError

from tasks.auth import issue_token
from tasks.models import Tenant


class Command(BaseCommand):
    help = "Print an access token for a tenant (and nothing else on stdout)."

    def add_arguments(self, parser):
        parser.add_argument("tenant_id")
        parser.add_argument("--ttl", type=int, default=None, help="lifetime in seconds")

    def handle(self, *args, tenant_id: str, ttl: int | None, **options):
        try:
            tenant = Tenant.objects.get(id=uuid.UUID(tenant_id), is_active=True)
        except (ValueError, Tenant.DoesNotExist) as exc:
            raise CommandError(f"no active tenant {tenant_id}") from exc
        if ttl is not None and ttl <= 0:
            raise CommandError("--ttl must be a positive number of seconds")
        self.stdout.write(issue_token(tenant, ttl))
