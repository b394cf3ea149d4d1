"""README's tables of sites and rule profiles say what the site modules declare: each row is
worked out here from the modules and compared with the README's."""

from __future__ import annotations

from pathlib import Path

from handlog.model import Game
from handlog.parse.sites import FORMATS, profiles
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.traits import SiteTraits, UncalledBets

README = Path(__file__).resolve().parent.parent / "README.md"

UNCALLED = {
    UncalledBets.LINE: "returned with a line",
    UncalledBets.SILENT: "returned silently",
    UncalledBets.IN_POT: "left in the pot",
}


def _pot_words(traits: SiteTraits) -> str:
    if not traits.prints_total_pot:
        return "not printed"
    return "after rake" if traits.total_pot_after_rake else "before rake"


def site_rows() -> dict[str, tuple[str, str, str, str]]:
    """Per site: (profile, uncalled bets, total pot, descriptions compared), from every
    format of the site (they must agree)."""
    rows: dict[str, tuple[str, str, str, str]] = {}
    for found in FORMATS:
        traits = found.traits
        row = (
            f"`{found.profile.name}`",
            UNCALLED[traits.uncalled_bets],
            _pot_words(traits),
            "yes" if traits.describes_hands else "no",
        )
        assert rows.setdefault(found.site.value, row) == row, found.name
    return rows


def profile_row(profile: RuleProfile) -> tuple[str, ...]:
    games = ", ".join(
        {Game.STUD: "stud", Game.STUD5: "5-card stud"}.get(game, game.value)
        for game in sorted(profile.open_pair_double_bet, key=list(Game).index)
    )
    if profile.small_raise_after_big_bet:
        games += " (small raise after a big bet)"
    return (
        str(profile.cap_bets),
        "kept" if profile.cap_heads_up else "lifted",
        games or "none",
        "to the high half" if profile.odd_chip_to_high else "to the low half",
        "lower suit first" if profile.razz_lower_suit_first else "higher suit first",
        "yes" if profile.burns else "no",
        "by suit" if profile.first_actor_tie is TieBreak.SUIT else "clockwise",
    )


def _table(title_start: str) -> list[list[str]]:
    lines = README.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(title_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_sites_table_says_what_the_modules_declare():
    expected = site_rows()
    table = _table("| site | site value |")
    assert {row[1].strip("`") for row in table} == set(expected)
    for row in table:
        assert tuple(row[2:]) == expected[row[1].strip("`")], row


def test_the_profiles_table_says_what_the_profiles_hold():
    known = profiles()
    table = _table("| profile |")
    assert {row[0].split()[0].strip("`") for row in table} == set(known)
    for row in table:
        assert tuple(row[1:]) == profile_row(known[row[0].split()[0].strip("`")]), row
