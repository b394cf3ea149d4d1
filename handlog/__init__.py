"""handlog: parse, replay, check, store and report stud poker hand histories."""

from handlog import _native

_native.install()  # before any compiled module is imported: see handlog._native
