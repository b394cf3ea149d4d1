"""What the text sites share, tested once: the completion of the bring-in on the game's first
street, the street words of the summaries, the tables the grammars' sections are read by."""

from __future__ import annotations

import pytest

from handlog.model import ActionKind, Street
from handlog.parse.reader import Chunk
from handlog.parse.text import STREET_WORDS, SectionGrammar, TextHandBuilder, street_named


def _builder(first_street: Street) -> TextHandBuilder:
    chunk = Chunk("hands.txt", 1, "header\n")
    builder = TextHandBuilder(chunk, SectionGrammar("none", "A site", {}, {}, {}, {}))
    builder.first_street = first_street
    return builder


@pytest.mark.parametrize("first", [Street.THIRD, Street.SECOND])
def test_the_first_bet_or_raise_of_the_first_street_completes_the_bring_in(first):
    builder = _builder(first)
    builder.street = first
    assert builder.completion_or(ActionKind.BET) is ActionKind.COMPLETE
    assert builder.completion_or(ActionKind.RAISE) is ActionKind.RAISE
    builder.street = Street(int(first) + 1)
    assert builder.completion_or(ActionKind.BET) is ActionKind.BET


def test_in_5_card_stud_3rd_street_opens_with_a_bet_not_a_completion():
    # RULES.md: 5-card stud brings in on 2nd street, its first betting round; a bet on 3rd
    # street is a bet (a builder that took 3rd street for the first street called it a
    # completion, and the replay then saw a completion with no bring-in).
    builder = _builder(Street.SECOND)
    builder.street = Street.THIRD
    assert builder.completion_or(ActionKind.BET) is ActionKind.BET
    builder.street = Street.SECOND
    assert builder.completion_or(ActionKind.RAISE) is ActionKind.COMPLETE


@pytest.mark.parametrize(
    ("words", "street"),
    [
        ("3rd Street", Street.THIRD),
        ("3RD STREET", Street.THIRD),
        ("3rd St.", Street.THIRD),
        ("4TH STREET", Street.FOURTH),
        ("fifth", Street.FIFTH),
        ("Sixth", Street.SIXTH),
        ("7th street", Street.SEVENTH),
        ("River", Street.SEVENTH),
        ("RIVER", Street.SEVENTH),
        ("HOLE CARDS", Street.THIRD),
        ("2nd", Street.SECOND),
    ],
)
def test_a_summary_names_a_street_in_any_of_the_sites_words(words, street):
    assert street_named(words) is street


@pytest.mark.parametrize("words", ["5rd Street", "5rd", "8th Street", "Street", "", "3rd Avenue"])
def test_words_that_name_no_street_are_a_value_error_of_the_line(words):
    with pytest.raises(ValueError, match="names no street"):
        street_named(words)


def test_every_street_word_is_lower_case_and_names_a_dealt_street():
    assert all(word == word.lower() for word in STREET_WORDS)
    assert set(STREET_WORDS.values()) <= {
        Street.SECOND,
        Street.THIRD,
        Street.FOURTH,
        Street.FIFTH,
        Street.SIXTH,
        Street.SEVENTH,
    }
