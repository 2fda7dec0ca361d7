"""The match pages' tests: the page, hand actions, conflicts between phones, deletes and undo,
the history, the live scoreboard, exports."""
