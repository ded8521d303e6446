from django.core.management.base import BaseCommand

from audit.record import command_operator
from tasks.management.tenant_argument import tenant_by_id
from tasks.tenants import tenant_revoke_tokens


class Command(BaseCommand):
    help = "Refuse every token of a tenant issued until now (new ones can be issued after)."

    def add_arguments(self, parser):
        parser.add_argument("tenant_id")

    def handle(self, *args, tenant_id: str, **options):
        cut_off = tenant_revoke_tokens(tenant=tenant_by_id(tenant_id), actor=command_operator())
        self.stdout.write(f"tokens issued before {cut_off.isoformat()} are refused")
