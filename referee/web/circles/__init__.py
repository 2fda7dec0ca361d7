"""The circles (the blueprint ``circles``): a circle's page, its people and seats, its
statistics and charts, its Troggu evenings."""
