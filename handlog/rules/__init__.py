"""Stud rules: hand evaluation, rule profiles and the replay checks built on them."""
