"""One module per schema revision, in order; each says what it changes."""
