"""Storage: SQLAlchemy 2.x models, the database handle and Alembic migrations."""
