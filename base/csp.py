"""Content-Security-Policy on every response (Django 5.2 has none built in).

The policy (settings.CONTENT_SECURITY_POLICY) allows scripts and styles only from this site's own files: no
inline <script>, no on* attributes, no style attributes. Pages attach behaviour from static/js/site.js through
data attributes instead, so an injected fragment could run nothing even if escaping ever failed."""

from django.conf import settings


def header_value(policy: dict[str, list[str]]) -> str:
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.value = header_value(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.value)
        return response
