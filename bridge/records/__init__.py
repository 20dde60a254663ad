"""The records of every finished series (``docs/seasons.md``): the database (``db.py``, SQLite or PostgreSQL,
``schema.py``), one series as it is kept (``entry.py``) and the figures the stats pages and ``traitors stats``
show (``stats.py``)."""
