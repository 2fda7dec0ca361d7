"""Each game's own pages and editors."""
