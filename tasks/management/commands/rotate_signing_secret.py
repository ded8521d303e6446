from django.core.management.base import BaseCommand

from audit.record import command_operator
from tasks.management.tenant_argument import tenant_by_id
from tasks.tenants import SIGNING_SECRET_OVERLAP, tenant_rotate_signing_secret


class Command(BaseCommand):
    help = (
        "Give a tenant a new signing secret and print it (shown this once). For the next "
        "24 hours every call carries a signature with the old secret as well."
    )

    def add_arguments(self, parser):
        parser.add_argument("tenant_id")

    def handle(self, *args, tenant_id: str, **options):
        fresh = tenant_rotate_signing_secret(
            tenant=tenant_by_id(tenant_id), actor=command_operator()
        )
        hours = int(SIGNING_SECRET_OVERLAP.total_seconds() // 3600)
        self.stderr.write(f"the old secret keeps signing calls for {hours} hours")
        self.stdout.write(fresh)
