"""The circles' tests: pages, people and seats, statistics, evenings."""
