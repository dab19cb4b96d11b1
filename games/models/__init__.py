"""The games app's models, one module per domain: uploaded game records, and match play."""

from games.models.analysis import *  # noqa: F403
from games.models.matches import *  # noqa: F403
from games.models.records import *  # noqa: F403
from games.models.variants import *  # noqa: F403
