"""High card: a game defined only inside the tests, to show that the table serves a game it has never heard of."""
