"""Step 6: users' unique normalised names, their session versions, and signed-in browsers.

Names that differ only in case (a sign-up race could make them on PostgreSQL) keep the oldest
account under the plain key; a later twin gets its id appended, so it stays reachable by an
operator but can no longer shadow the first.

On SQLite, adding the NOT NULL `session_version` rebuilds the `user` table (create, copy, drop,
rename): the runner turns foreign-key enforcement off around it, or dropping `user` would delete
every row that refers to a user."""
import datetime as dt
import unicodedata

import peewee as pw

from deckhub.store.migrations import add_missing_fields


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


def name_key(username):
    return unicodedata.normalize("NFKC", username or "").strip().casefold()


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class LoginSession(Base):
    user = pw.ForeignKeyField(User, backref="login_sessions", on_delete="CASCADE")
    key = pw.CharField(max_length=64, unique=True)
    created_at = pw.DateTimeField(default=utcnow, index=True)


def fill_name_keys(database):
    users = pw.Table("user", ("id", "username", "name_key")).bind(database)
    seen = set()
    for uid, username, key in users.select(users.id, users.username, users.name_key).order_by(users.id).tuples():
        wanted = name_key(username)
        if wanted in seen:
            wanted = f"{wanted}#{uid}"
        seen.add(wanted)
        if key != wanted:
            users.update(name_key=wanted).where(users.id == uid).execute()


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, User,
                       name_key=pw.CharField(max_length=60, unique=True, null=True),
                       session_version=pw.IntegerField(default=1))
    migrator.run(fill_name_keys, database)
    migrator.create_model(LoginSession)
