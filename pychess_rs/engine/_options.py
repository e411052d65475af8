"""Engine options: the :class:`Option` an engine declares, the case-insensitive
:class:`UciOptionMap` they are kept in, and the value checks made before anything is sent.

::

    >>> from pychess_rs.engine import Option
    >>> hash_mb = Option("Hash", "spin", 16, 1, 33554432, [])
    >>> hash_mb.parse("64")
    64
    >>> hash_mb.parse(0)
    Traceback (most recent call last):
    ...
    pychess_rs.engine.EngineError: expected a value of at least 1 for option 'Hash', got 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import Generic, TypeVar, Union

from ._errors import EngineError

__all__ = ["ConfigMapping", "ConfigValue", "Option", "UciOptionMap", "option_changes"]

#: What an option may be set to.
ConfigValue = Union[str, int, bool, None]
#: Options to set, by name.
ConfigMapping = Mapping[str, ConfigValue]

#: Options the clients set themselves, from the arguments of each call (the board's
#: variant, ``multipv``, ``ponder``): :meth:`Protocol.configure` refuses them.
MANAGED_OPTIONS = frozenset(["uci_chess960", "uci_variant", "multipv", "ponder"])

T = TypeVar("T")


@dataclasses.dataclass
class Option:
    """One option an engine declares: its ``name``, ``type`` (``"check"``, ``"spin"``,
    ``"combo"``, ``"button"``, ``"string"``, and for XBoard also ``"file"``, ``"path"``,
    ``"reset"``, ``"save"``), its ``default``, and ``min``/``max`` (spin) or ``var`` (combo
    choices)."""

    name: str
    type: str
    default: ConfigValue
    min: int | None
    max: int | None
    var: list[str] | None

    def is_action(self) -> bool:
        """Whether the option is pressed rather than set (a button, or XBoard's reset or
        save): it holds no value."""
        return self.type in ("button", "reset", "save")

    def parse(self, value: ConfigValue) -> ConfigValue:
        """``value`` checked and converted for this option (``"64"`` becomes ``64`` for a
        spin, ``"true"`` becomes ``True`` for a check).

        :raises: :exc:`EngineError` for a value of the wrong kind, out of range, not one of
            the choices, or holding a line break.
        """
        if self.type == "check":
            return self._check(value)
        if self.type in ("spin", "slider"):
            return self._spin(value)
        if self.type == "combo":
            text = str(value)
            for choice in self.var or []:
                if choice.lower() == text.lower():
                    return choice
            raise EngineError(
                f"invalid value {value!r} for combo option {self.name!r} "
                f"(choices: {', '.join(self.var or [])})"
            )
        if self.is_action():
            if value is not None and value is not True:
                raise EngineError(f"option {self.name!r} is a {self.type}: set it with None")
            return None
        text = "" if value is None else str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"invalid line break in value {value!r} for option {self.name!r}")
        return text

    def _check(self, value: ConfigValue) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise EngineError(f"expected True or False for check option {self.name!r}, got {value!r}")

    def _spin(self, value: ConfigValue) -> int:
        if isinstance(value, bool):
            raise EngineError(f"expected an integer for option {self.name!r}, got {value!r}")
        try:
            number = int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise EngineError(
                f"expected an integer for option {self.name!r}, got {value!r}"
            ) from None
        if self.min is not None and number < self.min:
            raise EngineError(
                f"expected a value of at least {self.min} for option {self.name!r}, got {number}"
            )
        if self.max is not None and number > self.max:
            raise EngineError(
                f"expected a value of at most {self.max} for option {self.name!r}, got {number}"
            )
        return number

    def is_managed(self) -> bool:
        """Is this option set by the client from each call's arguments (``UCI_Chess960``,
        ``UCI_Variant``, ``MultiPV``, ``Ponder``)?"""
        return self.name.lower() in MANAGED_OPTIONS


class UciOptionMap(MutableMapping[str, T], Generic[T]):
    """A dictionary whose keys compare without regard to case (as UCI option names do),
    keeping the spelling they were first stored with."""

    def __init__(self, data: Mapping[str, T] | Iterable[tuple[str, T]] = (), **kwargs: T):
        self._store: dict[str, tuple[str, T]] = {}
        self.update(data, **kwargs)

    def __setitem__(self, key: str, value: T) -> None:
        folded = key.lower()
        spelling = self._store[folded][0] if folded in self._store else key
        self._store[folded] = (spelling, value)

    def __getitem__(self, key: str) -> T:
        return self._store[key.lower()][1]

    def __delitem__(self, key: str) -> None:
        del self._store[key.lower()]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._store

    def __iter__(self) -> Iterator[str]:
        return (spelling for spelling, _ in self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        theirs = {str(key).lower(): value for key, value in other.items()}
        return {key: value for key, (_, value) in self._store.items()} == theirs

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> UciOptionMap[T]:
        """A shallow copy."""
        return type(self)(self._store.values())

    def __copy__(self) -> UciOptionMap[T]:
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"


def option_changes(
    declared: UciOptionMap[Option],
    held: UciOptionMap[ConfigValue],
    target: UciOptionMap[ConfigValue],
) -> list[tuple[Option, ConfigValue]]:
    """The settings that take an engine from the values it ``held`` (those a client has set)
    to ``target``: changed values, buttons pressed again, and options set earlier but not in
    ``target`` back to their defaults."""
    wanted = target.copy()
    for name in held:
        if name not in wanted and declared[name].default is not None:
            wanted[name] = declared[name].default
    changes: list[tuple[Option, ConfigValue]] = []
    for name, value in wanted.items():
        option = declared[name]
        if option.is_action():
            changes.append((option, None))
        elif held.get(name, option.default) != value:
            changes.append((option, value))
    return changes
