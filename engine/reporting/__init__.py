"""The reports' projection (issue 19): the facts a report counts, read from the raw rows (`facts`), the
log-bucket durations (`sketch`), the SQL helpers both sides share (`stats`), and the worker's roll-up that
writes `report_day` (`rollup`). Below commands and queries, so the worker and the migration write the
projection with the same code the read side (engine/queries/report*.py) reads it by."""
