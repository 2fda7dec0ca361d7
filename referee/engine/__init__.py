"""The engine: cards, rules and scoring. Pure Python, no web, PDF or database imports."""
