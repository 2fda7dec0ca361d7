"""The match pages (the blueprint ``matches``): the match page, a hand's editor and what it
posts, conflicts between phones, deletes and undo, the history, the live scoreboard, exports."""
