"""REST routes of API.md, one blueprint per resource."""
