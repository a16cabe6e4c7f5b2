"""Messages of materials_aid (filled below)."""
CODES: dict = {}
DECISIONS: dict = {}
LABELS: dict = {}
