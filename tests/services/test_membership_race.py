"""Two admins demoting each other at the same moment must not leave their club without an admin."""

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from clubs import services
from clubs.models import Membership, Role
from tests.clubs.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_simultaneous_mutual_demotion_keeps_one_admin():
    club = ClubFactory()
    first = MembershipFactory(club=club, role=Role.ADMIN)
    second = MembershipFactory(club=club, role=Role.ADMIN)
    barrier = threading.Barrier(2)
    outcomes = []

    def demote(actor_membership, target_membership):
        try:
            barrier.wait(timeout=10)
            target = Membership.objects.select_related("club").get(pk=target_membership.pk)
            services.update_membership(actor=actor_membership.player.user, membership=target, role=Role.PLAYER)
            outcomes.append("demoted")
        except (ValidationError, PermissionDenied) as exc:
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=demote, args=(first, second)),
        threading.Thread(target=demote, args=(second, first)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(outcomes)[0] == "PermissionDenied" or "ValidationError" in outcomes
    assert outcomes.count("demoted") == 1
    assert Membership.objects.filter(club=club, role=Role.ADMIN, is_active=True).count() == 1
