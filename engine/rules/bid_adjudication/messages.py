"""Messages of bid_adjudication (filled below)."""
CODES: dict = {}
DECISIONS: dict = {}
LABELS: dict = {}
