"""The site-neutral records' last pieces: hidden cards explicit in `Dealt.hidden`, printer-only
facts apart in `Hand.printed`, and the text sites' shared hand skeleton."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from handlog import records
from handlog.cards import card
from handlog.model import PRINTED, Dealt, Hand, Printed, Site, Street
from handlog.parse import parse_file, parse_text
from handlog.parse.text import in_deal_order
from handlog.rules.variants import VARIANTS

from .conftest import SITES

XML_SITES = {"ipoker", "merge"}
"""Their builders do not fill `Dealt.hidden` yet (it defaults to 0)."""
TEXT_FIXTURES = sorted(
    p for p in SITES.glob("*/*") if p.suffix in (".txt", ".phhs") and p.parent.name not in XML_SITES
)


def _hands(path: Path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


@pytest.mark.parametrize("path", TEXT_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_dealing_record_counts_the_cards_its_line_does_not_show(path):
    """Shown plus hidden is what the street deals a player: the first street's count (3 in
    7-card games) on the first street, one card on each later street."""
    hands = _hands(path)
    for hand in hands:
        first = VARIANTS[hand.game].first_street
        for event in hand.dealt:
            dealt = int(first) if event.street == first else 1
            assert len(event.new) + event.hidden == dealt, (hand.hand_id, event)


def test_an_opponent_shows_the_door_card_and_hides_two():
    hand = _hands(SITES / "pokerstars" / "stud.txt")[0]
    third = [e for e in hand.dealt if e.street is Street.THIRD]
    full = [e for e in third if len(e.new) == 3]
    door_only = [e for e in third if len(e.new) == 1]
    assert full and door_only
    assert {e.hidden for e in full} == {0} and {e.hidden for e in door_only} == {2}
    assert {e.hidden for e in hand.dealt if e.street > Street.THIRD} == {0}


def test_sites_printing_hidden_cards_mean_the_same_as_sites_omitting_them():
    """KingsClub prints an opponent's down cards as `X` ("[X X Tc]"), PokerStars leaves them
    out ("[Tc]"): both records say one card shown, two hidden."""
    kingsclub = [h for p in sorted((SITES / "kingsclub").glob("*.txt")) for h in _hands(p)]
    opponents = [
        e for h in kingsclub for e in h.dealt if e.street is Street.THIRD and len(e.new) == 1
    ]
    assert opponents and {e.hidden for e in opponents} == {2}


def test_a_line_by_line_deal_counts_down_the_hidden_cards():
    """Winning 2016 prints each card of a street on its own line; the record of the street
    grows card by card, and its hidden count falls with it."""
    hands = [h for p in sorted((SITES / "winning").glob("2016-*.txt")) for h in _hands(p)]
    third = [e for h in hands for e in h.dealt if e.street is Street.THIRD]
    assert {(len(e.new), e.hidden) for e in third} <= {(1, 2), (3, 0)}
    assert any(len(e.new) == 3 for e in third)


def test_the_printer_only_facts_stand_apart_and_read_as_before():
    hand = _hands(SITES / "pokerstars" / "stud.txt")[0]
    assert hand.printed == Printed("game", "2009/11/26 10:09:44 ET")
    assert (hand.header_variant, hand.clock_text) == ("game", "2009/11/26 10:09:44 ET")
    names = {f.name for f in dataclasses.fields(Hand)}
    assert "printed" in names and not names & {"clock_text", "header_variant"}


def test_hands_differing_only_in_printed_facts_are_different_records():
    hand = _hands(SITES / "pokerstars" / "stud.txt")[0]
    other = dataclasses.replace(hand, printed=Printed("hand", hand.clock_text))
    assert other != hand and other.header_variant == "hand"
    assert dataclasses.replace(other, printed=hand.printed) == hand


def test_a_hand_built_without_text_has_no_printer_facts():
    """`Hand` takes its fields and nothing else; left out, `printed` is `PRINTED`: no header
    form and no clock text, so a printer writes its site's current form."""
    hand = _hands(SITES / "pokerstars" / "stud.txt")[0]
    fields = {f.name: getattr(hand, f.name) for f in dataclasses.fields(Hand)}
    del fields["printed"]
    assert Hand(**fields).printed is PRINTED
    assert Printed("", "") == PRINTED
    with pytest.raises(TypeError):
        Hand(**fields, clock_text="12:00")  # type: ignore[call-arg]


def test_the_source_init_check_refuses_parameters_that_are_not_the_fields():
    """A written-out `__init__` must take exactly the fields: one left out, or one more
    (even keyword-only), is refused."""

    @dataclasses.dataclass(frozen=True)
    class Pair:
        left: int
        right: int = 0

        def __init__(self, left: int, *, other: int = 0) -> None:
            pass

    with pytest.raises(TypeError, match="Pair.__init__ takes"):
        records.source_init(Pair)
    assert "other" in inspect.signature(Pair.__init__).parameters


def test_dealt_keeps_line_as_its_fifth_argument():
    """Builders pass the line by position (the XML readers among them)."""
    event = Dealt(Street.FOURTH, "A", (), (), 12)
    assert (event.line, event.hidden) == (12, 0)


def test_the_skeleton_takes_the_source_from_the_whole_hand():
    """PartyPoker's builder reads a part of the hand; the record's source is the whole."""
    path = SITES / "partypoker" / "stud8-no-qualifying-low.txt"
    text = path.read_text(encoding="utf-8")
    hands = [h for h in parse_text(text, str(path)) if isinstance(h, Hand)]
    assert hands and hands[0].site is Site.PARTYPOKER
    assert hands[0].source is not None and hands[0].source.line == 1


@pytest.mark.parametrize(
    ("site", "name", "line", "changed", "message"),
    [
        (
            "pokerstars",
            "stud.txt",
            "Seat 5: trs2758 folded on the 5th Street",
            "Seat 5: nobody folded on the 5th Street",
            "the summary names 'nobody', who is not in the seat list",
        ),
        (
            "pokerstars",
            "stud.txt",
            "Seat 5: trs2758 folded on the 5th Street",
            "Seat 3: trs2758 folded on the 5th Street",
            "the summary puts trs2758 in seat 3, but trs2758 sits in seat 5",
        ),
        (
            "winamax",
            "razz-uncalled-bet-in-pot.txt",
            "Seat 4: Player0 won 258€",
            "Seat 4: Player9 won 258€",
            "the summary names 'Player9', who is not in the seat list",
        ),
    ],
)
def test_every_site_reads_a_summary_seat_alike(site, name, line, changed, message):
    path = SITES / site / name
    text = path.read_text(encoding="utf-8")
    assert line in text
    results = parse_text(text.replace(line, changed), str(path))
    errors = [r for r in results if not isinstance(r, Hand)]
    assert [e.message for e in errors][:1] == [message]


def test_in_deal_order_leaves_a_show_of_fewer_cards_than_were_dealt_as_shown():
    """Every text site's one helper (`parse.text.in_deal_order`): a card seen dealt at a
    position past the cards shown leaves the show as it is (it stopped with StopIteration)."""
    known = {0: card("Qh"), 2: card("5c")}
    assert in_deal_order(known, (card("Qh"), card("5c"))) == (card("Qh"), card("5c"))
    assert in_deal_order({1: card("Qh")}, (card("Qh"), card("5c"))) == (card("5c"), card("Qh"))
