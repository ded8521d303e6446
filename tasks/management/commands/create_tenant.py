from django.core.management.base import BaseCommand

from tasks.models import Tenant


class Command(BaseCommand):
    help = "Create a tenant and print its id (and nothing else on stdout)."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--concurrency-limit", type=int, default=None)

    def handle(self, *args, name: str, concurrency_limit: int | None, **options):
        tenant = Tenant(name=name)
        if concurrency_limit is not None:
            tenant.concurrency_limit = concurrency_limit
        tenant.save()
        self.stdout.write(str(tenant.id))
