"""The refusals a test catches around a call, under the names the tests have always caught them by.

A service refuses with base.errors (Invalid for bad input, NotAllowed for a caller who may not); the permission
rules (clubs.access.require), a model's full_clean and a form still raise Django's own. A test that says
`pytest.raises(ValidationError)` means "refused as bad input", whichever of the layers refused, so each name here is
both (pytest.raises and isinstance take a tuple).
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError

from base.errors import Invalid, NotAllowed

ValidationError = (DjangoValidationError, Invalid)
PermissionDenied = (DjangoPermissionDenied, NotAllowed)
