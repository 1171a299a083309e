"""The store: the database schema and how it changes.

`migrations/` holds the numbered schema steps (peewee-migrate files, each with the tables frozen as
they were at that step) and `schema.py` applies them: only `deckhub db upgrade` and `deckhub serve`
on the embedded database change the schema.
"""
