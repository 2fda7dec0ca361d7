"""Tests against the real server, run as a separate process (a package, so that its
test_race.py does not clash with tests/engine/test_race.py)."""
