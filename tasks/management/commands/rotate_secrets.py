from django.core.management.base import BaseCommand, CommandError

from tasks.secrets import secrets_rotate


class Command(BaseCommand):
    help = (
        "Re-encrypt every tenant secret with the first key of SECRETS_ENCRYPTION_KEYS; "
        "afterwards the other keys can be removed."
    )

    def handle(self, *args, **options):
        rotated, failed = secrets_rotate()
        self.stdout.write(f"rotated {rotated} secrets")
        if failed:
            raise CommandError(
                f"{failed} secrets could not be decrypted with any key: keep the old keys in "
                "SECRETS_ENCRYPTION_KEYS until they are found, or have tenants store them again"
            )
