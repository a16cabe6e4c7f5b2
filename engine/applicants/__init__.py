"""The applicant's side of a case: access codes, the short sessions they open, what the status
page shows, and filing into one's own open case through the engine's commands (API.md
"Applicant access")."""
