"""Who played: a player is an account, a name at a site; a person is the accounts a user
says are one (`aliases`); the hero is the account whose down cards a file shows; a seat is
in a hand only if it was dealt in.

* **Accounts.** The same name at two sites is two players ("Player3" at Full Tilt and at
  PokerStars share nothing but the name): the store keys every player row by (site, name),
  and reports, filters and charts do too. An account is written `site:name` (`pokerstars:Hero`,
  `"Full Tilt:HeroFT"`: the site as its value or its name, any case; `parse_account`), or
  by its name alone where that name is at one site only (`resolve`).
* **Persons.** `handlog alias add me pokerstars:Hero "Full Tilt:HeroFT"` stores, in the
  database's `aliases` table, that these accounts are one person (`add_alias`); reports
  then show the person's figures, each unit apart (`identities`).
* **Dealt in** (`seat_roles`): a seat that never anted, was never dealt a card and never
  acted (sat out: Full Tilt's `Player6 is sitting out` after the antes, Bovada's `Seat sit
  out`, a PartyPoker seat with no ante and no cards, a PokerStars `X: is sitting out` line)
  is not in the hand, for any statistic or count. Derived from the site-neutral records,
  whatever the site prints; stored as `hand_players.dealt_in`.
* **Hero** (`seat_roles`): the account that exported a file, whose face-down cards its
  dealing lines show (`hand_players.hole_shown`); a hand's hero (`hands.hero`) where only
  one player's are shown, a file's (`heroes`) the account shown in most of its hands (some
  exports show other players' at times: iPoker's at a showdown), or the player a site's
  hands name as theirs (`SiteTraits.hero_name`: Bovada's "[ME]", whose dealing lines show
  every player's cards).

These are library functions over a DuckDB connection to the store: the CLI (`handlog
alias`, `report --player`) and the local app call the same ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from handlog.holdings import seat_roles
from handlog.model import Site

if TYPE_CHECKING:
    import duckdb

SITE_NAMES: dict[Site, str] = {
    Site.POKERSTARS: "PokerStars",
    Site.FULL_TILT: "Full Tilt",
    Site.WINNING: "Winning",
    Site.WINAMAX: "Winamax",
    Site.BOVADA: "Bovada",
    Site.EVERLEAF: "Everleaf",
    Site.PARTYPOKER: "PartyPoker",
    Site.ONGAME: "OnGame",
    Site.ABSOLUTE: "Absolute",
    Site.KINGSCLUB: "KingsClub",
    Site.IPOKER: "iPoker",
    Site.MERGE: "Merge",
    Site.PHH: "PHH",
}
"""How a player names each site (accepted before the colon of `site:name`, as is the
site's value: `fulltilt`)."""

_OTHER_SPELLINGS = {
    "fulltiltpoker": Site.FULL_TILT,
    "ftp": Site.FULL_TILT,
    "winningpoker": Site.WINNING,
    "acr": Site.WINNING,
    "americascardroom": Site.WINNING,
    "bodog": Site.BOVADA,
    "party": Site.PARTYPOKER,
    "absolutepoker": Site.ABSOLUTE,
    "carbon": Site.MERGE,
    "stars": Site.POKERSTARS,
}


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


_SITES_BY_KEY: dict[str, Site] = (
    {_key(site.value): site for site in Site}
    | {_key(name): site for site, name in SITE_NAMES.items()}
    | _OTHER_SPELLINGS
)


def site_named(text: str) -> Site | None:
    """The site `text` names ("PokerStars", "full tilt", "fulltilt", "ACR"), if any."""
    return _SITES_BY_KEY.get(_key(text))


@dataclass(frozen=True, order=True)
class Account:
    """A player at a site: the unit of identity of the store."""

    site: str
    """The site's value (`pokerstars`)."""
    name: str

    def __str__(self) -> str:
        return f"{self.site}:{self.name}"


def parse_account(text: str) -> tuple[Site | None, str]:
    """`site:name` as (site, name); a text whose part before the first colon names no site
    is a name alone (names may hold colons: `Ace: the Man`), (None, text)."""
    head, colon, tail = text.partition(":")
    if colon:
        site = site_named(head)
        if site is not None and tail:
            return site, tail
    return None, text


class PlayerError(Exception):
    """A player, person or alias the user named that is not there, or is ambiguous: the
    message says what the database holds."""


ALIASES_TABLE = """CREATE TABLE IF NOT EXISTS aliases (
    person VARCHAR NOT NULL, site VARCHAR NOT NULL, player VARCHAR NOT NULL,
    PRIMARY KEY (site, player)
);
"""
"""A person's accounts: one row per account (an account belongs to one person at most)."""


def _has_aliases_table(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether the connection has an `aliases` table (a Parquet dataset has none)."""
    found = connection.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'aliases' AND schema_name = 'main'"
    ).fetchone()
    return bool(found and found[0])


def aliases(connection: duckdb.DuckDBPyConnection) -> dict[str, list[Account]]:
    """Every person and their accounts, by person name (sorted)."""
    if not _has_aliases_table(connection):
        return {}
    people: dict[str, list[Account]] = {}
    for person, site, player in connection.execute(
        "SELECT person, site, player FROM aliases ORDER BY person, site, player"
    ).fetchall():
        people.setdefault(person, []).append(Account(site, player))
    return people


def _accounts_named(connection: duckdb.DuckDBPyConnection, name: str) -> list[Account]:
    return [
        Account(site, player)
        for site, player in connection.execute(
            "SELECT DISTINCT site, player FROM hand_players WHERE player = ? ORDER BY site",
            [name],
        ).fetchall()
    ]


def find_account(connection: duckdb.DuckDBPyConnection, text: str) -> Account:
    """The stored account `text` names (`site:name`, or a name at one site only); a
    `PlayerError` that lists the sites when the name alone is at several, or similar names
    when there is none."""
    site, name = parse_account(text)
    if site is not None:
        found = connection.execute(
            "SELECT 1 FROM hand_players WHERE site = ? AND player = ? LIMIT 1",
            [site.value, name],
        ).fetchone()
        if found:
            return Account(site.value, name)
        elsewhere = _accounts_named(connection, name)
        if elsewhere:
            listed = ", ".join(str(account) for account in elsewhere)
            raise PlayerError(f"no player {name!r} at {site.value}; there is {listed}")
        raise PlayerError(f"no player {name!r} at {site.value}{_similar(connection, name)}")
    accounts = _accounts_named(connection, name)
    if len(accounts) == 1:
        return accounts[0]
    if not accounts:
        raise PlayerError(f"no player {name!r} in the database{_similar(connection, name)}")
    raise PlayerError(_ambiguous(name, accounts))


def _ambiguous(name: str, accounts: list[Account]) -> str:
    sites = ", ".join(account.site for account in accounts)
    return (
        f"{name!r} is a player at {len(accounts)} sites ({sites}): name one, as "
        f"--player {accounts[0]}, or say they are one person: handlog alias add NAME "
        + " ".join(_quoted(str(account)) for account in accounts)
    )


def _quoted(text: str) -> str:
    return f'"{text}"' if re.search(r"[^\w:.@+-]", text) else text


def _similar(connection: duckdb.DuckDBPyConnection, name: str) -> str:
    similar = connection.execute(
        "SELECT DISTINCT site, player FROM hand_players WHERE lower(player) LIKE ? "
        "ORDER BY player, site LIMIT 5",
        [f"%{name.lower()}%"],
    ).fetchall()
    if not similar:
        return ""
    return " (did you mean " + ", ".join(str(Account(s, p)) for s, p in similar) + "?)"


@dataclass(frozen=True)
class Identity:
    """Whom a report row is about: an account, or a person (several accounts). `site` is the
    account's site, or a person's sites joined by "+" (`fulltilt+pokerstars`); `name` the
    account's name or the person's."""

    site: str
    name: str
    accounts: tuple[Account, ...]
    person: bool = False

    def __str__(self) -> str:
        return self.name if self.person else f"{self.site}:{self.name}"


def person_site(accounts: list[Account] | tuple[Account, ...]) -> str:
    """The `site` of a person's report rows: the sites of their accounts."""
    return "+".join(sorted({account.site for account in accounts}))


def resolve(connection: duckdb.DuckDBPyConnection, text: str) -> Identity:
    """The identity `--player TEXT` names: a person (an alias), else an account (see
    `find_account`). An account that belongs to a person is reported as that person, its
    own hands only."""
    people = aliases(connection)
    if text in people:
        theirs = tuple(people[text])
        return Identity(person_site(theirs), text, theirs, person=True)
    account = find_account(connection, text)
    for person, accounts in people.items():
        if account in accounts:
            return Identity(person_site(accounts), person, (account,), person=True)
    return Identity(account.site, account.name, (account,))


def add_alias(
    connection: duckdb.DuckDBPyConnection, person: str, accounts: list[str]
) -> list[Account]:
    """Say that `accounts` (`site:name`, or names at one site) are the person `person`
    (added to the person's accounts if they have some). Each account must be in the
    database; an account of another person is an error naming that person (remove it from
    there first)."""
    if not person.strip():
        raise PlayerError("a person needs a name")
    if not accounts:
        raise PlayerError(f"name the accounts that are {person!r} (site:name ...)")
    found = [find_account(connection, text) for text in accounts]
    people = aliases(connection)
    for other, theirs in people.items():
        for account in found:
            if other != person and account in theirs:
                raise PlayerError(
                    f"{account} is already {other!r}'s: handlog alias remove {_quoted(other)} "
                    f"{_quoted(str(account))} first"
                )
    connection.execute(ALIASES_TABLE)
    connection.executemany(
        "INSERT OR REPLACE INTO aliases VALUES (?, ?, ?)",
        [[person, account.site, account.name] for account in found],
    )
    return found


def remove_alias(
    connection: duckdb.DuckDBPyConnection, person: str, accounts: list[str] | None = None
) -> int:
    """Remove `accounts` (all of them when none are named) from the person `person`; how
    many were removed. A `PlayerError` when there is no such person or account of theirs."""
    people = aliases(connection)
    if person not in people:
        known = ", ".join(repr(name) for name in people) or "none yet"
        raise PlayerError(f"no person {person!r} (persons: {known})")
    theirs = people[person]
    if not accounts:
        chosen = theirs
    else:
        chosen = []
        for text in accounts:
            site, name = parse_account(text)
            matches = [
                account
                for account in theirs
                if account.name == name and (site is None or account.site == site.value)
            ]
            if len(matches) != 1:
                listed = ", ".join(str(account) for account in theirs)
                raise PlayerError(f"{text!r} is not one of {person!r}'s accounts ({listed})")
            chosen.append(matches[0])
    connection.executemany(
        "DELETE FROM aliases WHERE person = ? AND site = ? AND player = ?",
        [[person, account.site, account.name] for account in chosen],
    )
    return len(chosen)


@dataclass
class Identities:
    """How a report names the player rows: each aliased account's person and the person's
    sites (`person_site`); accounts of no person are themselves."""

    people: dict[Account, tuple[str, str]] = field(default_factory=dict)
    """account -> (person, person_site)."""

    def of(self, account: Account) -> Identity:
        person = self.people.get(account)
        if person is None:
            return Identity(account.site, account.name, (account,))
        return Identity(person[1], person[0], (account,), person=True)

    def arrow(self) -> Any:
        """The aliased accounts as an Arrow table (site, player, person, person_site), for
        the report's queries to relabel their rows."""
        import pyarrow as pa

        accounts = sorted(self.people)
        return pa.table(
            {
                "site": pa.array([a.site for a in accounts], pa.string()),
                "player": pa.array([a.name for a in accounts], pa.string()),
                "person": pa.array([self.people[a][0] for a in accounts], pa.string()),
                "person_site": pa.array([self.people[a][1] for a in accounts], pa.string()),
            }
        )


def identities(connection: duckdb.DuckDBPyConnection) -> Identities:
    """The persons of the database (`aliases`) as a report's `Identities`."""
    found = Identities()
    for person, accounts in aliases(connection).items():
        label = person_site(accounts)
        for account in accounts:
            found.people[account] = (person, label)
    return found


HEROES_SQL = """
    SELECT h.file, p.site, p.player AS hero, count(*) AS hands
    FROM hand_players p JOIN hands h USING (site, hand_id)
    WHERE {counts}
    GROUP BY h.file, p.site, p.player
    QUALIFY row_number() OVER (PARTITION BY h.file ORDER BY count(*) DESC, p.site, p.player) = 1
"""
"""Each file's hero: the account whose face-down cards its hands' dealing lines show most
often (the account that exported it plays every hand of it; others are shown at times), or
at a site whose hands name their hero (`SiteTraits.hero_name`) that player (`heroes_sql`
fills in `counts`)."""


def named_heroes(connection: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The sites of the database's hands that name the player who exported them
    (`SiteTraits.hero_name`: Bovada's "[ME]"), each with that player's name."""
    from handlog.parse.sites import format_for  # only the sites stored: their modules alone

    named = {}
    for (value,) in connection.execute("SELECT DISTINCT site FROM hands ORDER BY site").fetchall():
        try:
            found = format_for(Site(value))
        except ValueError:  # a site this handlog does not know (a newer one's database)
            continue
        if found is not None and found.traits.hero_name is not None:
            named[value] = found.traits.hero_name
    return named


def heroes_sql(connection: duckdb.DuckDBPyConnection) -> str:
    """`HEROES_SQL` for the database's sites: where a site names its hero, the hands of a
    file count for that player alone, seated in them (its dealing lines show every
    player's down cards, Bovada's: the player shown most would be anyone), its down cards
    shown or not (a hand it sat out is its file's too)."""
    named = named_heroes(connection)
    if not named:
        return HEROES_SQL.format(counts="p.hole_shown")
    cases = " ".join(
        f"WHEN {_literal(site)} THEN p.player = {_literal(name)}" for site, name in named.items()
    )
    return HEROES_SQL.format(counts=f"CASE p.site {cases} ELSE p.hole_shown END")


def _literal(text: str) -> str:
    """`text` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def heroes(connection: duckdb.DuckDBPyConnection) -> list[tuple[str, Account, int]]:
    """Each file's hero (`heroes_sql`): (file, account, hands that show it so: its down
    cards, or at a site that names its hero, the hands it is seated in), by file; files
    whose hands show nobody's are left out."""
    rows = connection.execute(f"{heroes_sql(connection)} ORDER BY file").fetchall()
    return [(file, Account(site, hero), int(hands)) for file, site, hero, hands in rows]


__all__ = [
    "SITE_NAMES",
    "Account",
    "Identities",
    "Identity",
    "PlayerError",
    "add_alias",
    "aliases",
    "find_account",
    "heroes",
    "identities",
    "parse_account",
    "remove_alias",
    "resolve",
    "seat_roles",
    "site_named",
]
