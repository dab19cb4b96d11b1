"""Existing DRF tokens keep working: each is copied as a hashed ApiToken with its creation time."""

import hashlib

from django.db import migrations


def copy_tokens(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("accounts", "ApiToken")
    for old in Token.objects.all().iterator():
        digest = hashlib.sha256(old.key.encode()).hexdigest()
        if not ApiToken.objects.filter(digest=digest).exists():
            token = ApiToken.objects.create(user_id=old.user_id, name="API sign-in", digest=digest, prefix=old.key[:8])
            ApiToken.objects.filter(pk=token.pk).update(created=old.created)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_login_throttle_and_api_tokens"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(copy_tokens, migrations.RunPython.noop)]
