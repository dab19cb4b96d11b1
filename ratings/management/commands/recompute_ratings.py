"""Rebuild rating pools from their match history, e.g. after changing RATINGS_FIBS_K_RULE."""

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingPool
from ratings.services import pools as pool_services


class Command(BaseCommand):
    help = "Recompute the overall pool and every club's pool (or one club's with --club) in date order."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="Only this club's pool (its short name).")

    def handle(self, *args, club=None, **options):
        pools = RatingPool.objects.order_by("id")
        if club:
            pools = pools.filter(club__slug=club)
            if not pools.exists():
                raise CommandError(f"No rating pool for a club with the short name {club!r}.")
        else:
            pool_services.overall_pool()  # the overall pool exists even before the first rated match
        for pool in pools:
            ran = pool_services.recompute_now(pool=pool)
            count = pool.rated_matches.count()
            self.stdout.write(f"{pool}: {count} rated matches" + ("" if ran else " (already recomputed)"))
