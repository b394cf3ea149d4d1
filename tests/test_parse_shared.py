"""What the text sites share, tested once: the completion of the bring-in on the game's first
street, the street words of the summaries, the tables the grammars' sections are read by."""

from __future__ import annotations

import sys

import pytest

from handlog.model import ActionKind, Game, Street
from handlog.parse.reader import Chunk
from handlog.parse.text import (
    SECTION_STREETS,
    STREET_WORDS,
    STUD_STREETS,
    GameInfo,
    SectionGrammar,
    TextHandBuilder,
    section_table,
    street_named,
    terminal_words,
)


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


def _text_grammars() -> list[SectionGrammar]:
    from handlog.parse import sites

    found = []
    for site_format in sites.FORMATS:
        module = sys.modules[site_format.parse_hand.__module__]
        syntax = getattr(module, "GRAMMAR", None)
        if isinstance(syntax, SectionGrammar) and syntax not in found:
            found.append(syntax)
    return found


def test_every_text_grammar_reads_its_sections_by_the_shared_tables():
    grammars = _text_grammars()
    assert len(grammars) >= 10
    for syntax in grammars:
        for name, (street, rule) in syntax.sections.items():
            # every line rule has a place for its messages, every section words for them
            assert rule in syntax.rule_places, (syntax.name, rule)
            assert name in syntax.terminal_words, (syntax.name, name)
            if street is not None and street is not Street.ANTES:
                assert SECTION_STREETS[name] is street, (syntax.name, name)


def test_a_section_table_opens_each_section_s_street_with_its_line_rule():
    table = section_table("SECOND_STREET", *STUD_STREETS, "RIVER", "SHOW_DOWN", "SUMMARY")
    assert list(table) == [
        "SEAT_LINES",
        "ANTE_LINES",
        "SECOND_STREET",
        *STUD_STREETS,
        "RIVER",
        "SHOW_DOWN",
        "SUMMARY",
    ]
    assert table["RIVER"] == (Street.SEVENTH, "street_line")
    assert table["SHOW_DOWN"] == (Street.SHOWDOWN, "showdown_line")
    assert table["SUMMARY"] == (Street.SUMMARY, "summary_line")
    words = terminal_words(table, {Street.SEVENTH: "*** RIVER ***"}, {"SUMMARY": "the end"})
    assert words["RIVER"] == "*** RIVER ***" and words["SUMMARY"] == "the end"
    assert words["$END"] == "the end of the hand"


def test_the_amount_readers_remember_what_they_read():
    from handlog import money

    for reader, text in ((money.minor_units, "$1,234.56"), (money.hundredths, "12,686.25")):
        reader(text)
        hits = reader.cache_info().hits
        reader(text)
        assert reader.cache_info().hits == hits + 1, reader


def test_a_grammar_reads_each_terminal_by_the_builder_method_named_after_it():
    class Builder(TextHandBuilder):
        def _seat_folded(self, text: str, line: int) -> None:
            pass

    def named(builder: object, text: str, line: int) -> None:
        pass

    syntax = SectionGrammar("none", "A site", {}, {"CHAT": named}, {}, {}, builder=Builder)
    assert syntax.handler("SEAT_FOLDED") is Builder._seat_folded
    assert syntax.handler("CHAT") is named  # a handler named outright wins
    assert syntax.handler("CHECKS") is TextHandBuilder._checks  # the base's common line
    with pytest.raises(KeyError, match="nothing reads the line terminal SEAT_LOST"):
        syntax.handler("SEAT_LOST")


def test_printed_actions_fill_the_site_templates():
    from handlog.model import Action
    from handlog.money import money_writer
    from handlog.parse.printing import action_line

    money = money_writer("$")
    words = {
        ActionKind.BET: "{player}: bets {amount}{all_in}",
        ActionKind.RAISE: "{player} raises to {to}{all_in}",
        ActionKind.FOLD: "{player} folds{shown}",
    }
    bet = Action(Street.FOURTH, "Ann", ActionKind.BET, 4, 4, True)
    assert action_line(bet, words, money, " and is all-in", "A site") == (
        "Ann: bets $0.04 and is all-in"
    )
    raised = Action(Street.FOURTH, "Bo", ActionKind.RAISE, 8, 12)
    assert action_line(raised, words, money, "!", "A site") == "Bo raises to $0.12"
    folded = Action(Street.FOURTH, "Cy", ActionKind.FOLD)
    assert action_line(folded, words, money, "!", "A site") == "Cy folds"
    call = Action(Street.FOURTH, "Di", ActionKind.CALL, 4, 4)
    with pytest.raises(ValueError, match="A site prints no call line"):
        action_line(call, words, money, "!", "A site")


def test_the_builder_takes_the_game_s_first_street_from_the_header():
    chunk = Chunk("hands.txt", 1, "header\n")
    syntax = SectionGrammar("none", "A site", {}, {}, {}, {})
    assert TextHandBuilder(
        chunk, syntax, "1", GameInfo("5 Card Stud", Game.STUD5)
    ).first_street is (Street.SECOND)
    assert TextHandBuilder(chunk, syntax, "1", GameInfo("Razz", Game.RAZZ)).first_street is (
        Street.THIRD
    )


def test_an_all_in_is_a_call_up_to_the_bet_faced_else_a_bet_raise_or_completion():
    builder = _builder(Street.THIRD)
    builder.street = Street.THIRD
    builder.current_bet = 2  # the bring-in
    assert builder.all_in_kind(2) is ActionKind.CALL
    assert builder.all_in_kind(5) is ActionKind.COMPLETE
    assert builder.all_in_kind(9) is ActionKind.RAISE
    builder.street = Street.FOURTH
    builder.current_bet = 0
    assert builder.all_in_kind(3) is ActionKind.BET


def test_a_second_export_form_is_the_first_with_another_header():
    from handlog.parse.sites import bovada, partypoker

    ignition = bovada.IGNITION_FORMAT
    assert ignition.parse_hand is bovada.FORMAT.parse_hand
    assert ignition.print_hand is bovada.FORMAT.print_hand
    assert (ignition.profile, ignition.traits) == (bovada.FORMAT.profile, bovada.FORMAT.traits)
    assert ignition.header_prefix != bovada.FORMAT.header_prefix and ignition.deals == ()
    assert partypoker.TOURNAMENT_FORMAT.is_header is partypoker.is_tournament_header
