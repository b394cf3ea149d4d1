"""Frozen record classes that are cheap to build.

A frozen dataclass's generated `__init__` calls `object.__setattr__` for every field (its own
`__setattr__` refuses), which makes records several times dearer to build than plain objects;
a parse builds tens of them per hand. Two remedies, for the two kinds of module:

* `record`, a class decorator for modules that run as Python: `@dataclass(frozen=True,
  slots=True)` with an `__init__` that writes through the slot descriptors.
* `handlog.model` is compiled with mypyc (see `handlog._native`): its records are plain
  `@dataclass(frozen=True)` classes with an `__init__` written out, which mypyc turns into C
  that fills the fields directly. Run as source, that `__init__` would trip over the frozen
  `__setattr__`, so the model swaps in `source_init(cls)` for it (`swap_inits`).

This module is never compiled: `record` is a `dataclass_transform`, which a compiled function
cannot be.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import Any, TypeVar, dataclass_transform

_Record = TypeVar("_Record")


def _generated_init(cls: type, slots: bool) -> Any:
    """An `__init__` for the dataclass `cls` taking its fields in order (with their
    defaults), storing each through its slot descriptor (`slots`) or `object.__setattr__`."""
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"_setattr": object.__setattr__}
    parameters = []
    for f in fields:
        if slots:
            namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        else:
            parameters.append(f.name)
    body = "".join(
        f"\n    _set_{f.name}(self, {f.name})"
        if slots
        else f"\n    _setattr(self, {f.name!r}, {f.name})"
        for f in fields
    )
    exec(f"def __init__(self, {', '.join(parameters)}):{body}", namespace)  # noqa: S102
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_Record]) -> type[_Record]:
    """`@dataclass(frozen=True, slots=True)` with a faster `__init__` (see the module's
    docstring). Instances stay frozen: assigning to a field afterwards raises
    `FrozenInstanceError`."""
    cls = dataclass(frozen=True, slots=True)(cls)  # type: ignore[assignment]
    cls.__init__ = _generated_init(cls, slots=True)  # type: ignore[misc,method-assign]
    return cls


def source_init(cls: type) -> Any:
    """For a frozen dataclass `cls` whose `__init__` is written out (the compiled model's
    records, run as source): an `__init__` with the same parameters that stores the fields
    past the frozen `__setattr__`. Checks that the written-out `__init__` takes exactly the
    fields, in order, with the same defaults, so the two cannot drift apart."""
    written = inspect.signature(cls.__init__)  # type: ignore[misc]
    expected = [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]
    found = [(p.name, p.default) for p in list(written.parameters.values())[1:]]
    if found != expected:
        raise TypeError(f"{cls.__qualname__}.__init__ takes {found}, its fields are {expected}")
    return _generated_init(cls, slots=False)


def swap_inits(*classes: type) -> None:
    """Give each of `classes` its `source_init` (for a module running as Python source)."""
    for cls in classes:
        cls.__init__ = source_init(cls)  # type: ignore[misc]
