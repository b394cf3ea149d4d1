import pytest

from handlog.cards import DECK, CardError, card, cards, format_cards


def test_every_card_reads_back_from_its_text():
    assert len(DECK) == 52 == len(set(DECK))
    for item in DECK:
        assert card(str(item)) is item


def test_index_orders_rank_then_suit_clubs_lowest():
    assert [str(c) for c in DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert card("As").index == 51
    assert card("2c").index == 0


def test_tens_may_be_written_10_and_ranks_lower_case():
    assert card("10d") is card("Td") is card("td")


def test_cards_splits_and_formats():
    hand = cards("Kd 4s Ac")
    assert format_cards(hand) == "Kd 4s Ac"
    assert cards("") == ()


@pytest.mark.parametrize("bad", ["of", "1c", "Kx", "", "AAs"])
def test_bad_tokens_name_themselves(bad):
    with pytest.raises(CardError, match=repr(bad).replace("[", r"\[")):
        card(bad)
