class BracketError(ValueError):
    """A request the bracket rules refuse; `field` names what to fix, `message` says how."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message
