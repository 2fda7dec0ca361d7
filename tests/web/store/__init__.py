"""The store's own tests: matches, hands and events in the database, what a process
keeps, the start-up."""
