"""A signal-free extension point: one app calls a hook inside its transaction, other apps' callbacks run in it
(so a callback's writes commit or roll back together with the change, and one that raises aborts it). Which
callbacks a hook runs, and in what order, is declared in config/pipeline.py, which alone registers them (the
tests may register their own for a while)."""

from collections.abc import Callable


class Hook:
    def __init__(self) -> None:
        self._callbacks: list[Callable[..., None]] = []

    def register(self, callback: Callable[..., None]) -> Callable[..., None]:
        """Register `callback`; usable as a decorator. Registering the same function twice is a no-op. Callbacks
        run in the order they were registered (config/pipeline.py's order)."""
        if callback not in self._callbacks:
            self._callbacks.append(callback)
        return callback

    def registered(self) -> tuple[Callable[..., None], ...]:
        """The callbacks registered now, in the order they run (what a cache of their effect is keyed by)."""
        return tuple(self._callbacks)

    def remove(self, callback: Callable[..., None]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def __call__(self, *args) -> None:
        for callback in list(self._callbacks):
            callback(*args)
