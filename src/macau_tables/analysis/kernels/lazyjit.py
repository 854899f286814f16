"""``njit`` applied on the first call, so that importing a kernel module does not import
numba (a third of a second): a process that only reads cached tables never pays for it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def lazy_njit(numba_globals: tuple[str, ...] = (), **options: Any) -> Callable[[F], F]:
    """Like ``numba.njit(**options)``, compiled (or loaded from numba's cache) on first use.
    ``numba_globals``: names of the function's module globals to set to numba's objects of
    that name first (``prange``, a plain ``range`` until then). The compiled dispatcher is
    ``wrapper.compiled()``."""

    def decorate(func: F) -> F:
        dispatcher: Any = None

        def compiled() -> Any:
            nonlocal dispatcher
            if dispatcher is None:
                import numba

                for name in numba_globals:
                    func.__globals__[name] = getattr(numba, name)
                dispatcher = numba.njit(**options)(func)
            return dispatcher

        @functools.wraps(func)
        def wrapper(*args: Any) -> Any:
            return compiled()(*args)

        wrapper.compiled = compiled  # type: ignore[attr-defined]
        return cast(F, wrapper)

    return decorate
