"""Messages of surplus_disposition (filled below)."""
CODES: dict = {}
DECISIONS: dict = {}
LABELS: dict = {}
