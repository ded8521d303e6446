from django.core.management.base import BaseCommand, CommandError

from tasks.models import Tenant

QUOTA_OPTIONS = {
    "max_tasks": "active and paused tasks at most",
    "max_secrets": "secrets at most",
    "create_rate": "task creations per second",
    "create_burst": "task creations in one burst",
}


class Command(BaseCommand):
    help = (
        "Create a tenant and print its id (and nothing else on stdout). Quotas left out "
        "take the defaults of the settings (TENANT_*); 0 means unlimited."
    )

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--concurrency-limit", type=int, default=None)
        for name, meaning in QUOTA_OPTIONS.items():
            parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=None, help=meaning)
        parser.add_argument(
            "--allow-critical",
            action="store_true",
            help="let its tasks use priority 0 (reserved executor slots)",
        )

    def handle(self, *args, name: str, concurrency_limit: int | None, allow_critical, **options):
        tenant = Tenant(name=name, allow_critical=allow_critical)
        if concurrency_limit is not None:
            tenant.concurrency_limit = concurrency_limit
        for quota in QUOTA_OPTIONS:
            value = options[quota]
            if value is not None and value < 0:
                raise CommandError(f"--{quota.replace('_', '-')} must be 0 (unlimited) or more")
            setattr(tenant, quota, value)
        tenant.save()
        self.stdout.write(str(tenant.id))
