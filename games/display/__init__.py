"""Engine words as page words, shared by the table and history: labels, cards, results."""
