"""The pure rules core: plain dataclasses and functions, no Flask and no peewee."""
