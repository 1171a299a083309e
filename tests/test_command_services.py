"""Every command parses its arguments, calls one service and prints (issue 29).

Each command of the `deckhub` group (walked from the group, so a new command is checked without
being listed) is read from its source as the write routes are (`test_write_routes`): the callback
and every function of `deckhub.commands` it reaches. A command may not
- name anything of `deckhub.store` (the database, a connection, a model), open a transaction or
  write a row;
- play, parse or import with the core or the importers itself (`deckhub.core.engine`,
  `deckhub.core.simulate`, `deckhub.core.tuning`, `deckhub.importers`): that is a service's work;
- call more than one function of `deckhub.services`, reading or writing, or call one in a loop.
Opening the site (`deckhub.commands.site`: the app, its database connection for the command's
run, the schema gate) is the commands' app factory and is not walked, as `create_app` is not for
the routes. Commands that are the site's machinery rather than a use case are listed below with why.
"""
from __future__ import annotations

import click

from test_write_routes import _Walker, _in, inspect_view

from deckhub.cli import main

NOT_A_USE_CASE = {
    "serve": "starts the site: the app factory, the schema gate and the web server",
    "worker": "starts the job queue's consumer, which runs the registered tasks",
}
CORE_AT_WORK = ("deckhub.core.engine", "deckhub.core.simulate", "deckhub.core.tuning", "deckhub.importers")


class CommandWalker(_Walker):
    package = "deckhub.commands"

    def is_use_case(self, func) -> bool:
        return True  # a command's one service call is its use case, whether it writes or reads

    def walks_into(self, func) -> bool:
        return _in(func, self.package) and not _in(func, "deckhub.commands.site")

    def judge(self, func, node) -> bool:
        if any(_in(func, package) for package in CORE_AT_WORK):
            self.report.problems.append(f"does a service's work with {func.__module__}.{func.__qualname__} "
                                        f"at {self.at(node)}")
        return True


def leaf_commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found.extend(leaf_commands(command, f"{prefix}{name} "))
        else:
            found.append((f"{prefix}{name}", command))
    return found


def test_every_command_calls_one_service_and_touches_no_store():
    commands = leaf_commands(main)
    assert len(commands) >= 19  # a broken walk must not pass by finding nothing
    failures = {}
    for name, command in commands:
        if name in NOT_A_USE_CASE:
            continue
        report = inspect_view(command.callback, "POST", CommandWalker)
        problems = list(report.problems)
        if len(report.use_cases) != 1:
            problems.append(f"calls {len(report.use_cases)} services, not 1: " + ("; ".join(report.use_cases) or "none"))
        if problems:
            failures[name] = problems
    listing = "\n".join(f"deckhub {name}:\n    " + "\n    ".join(problems) for name, problems in failures.items())
    assert not failures, (f"{len(failures)} of {len(commands)} commands do more than parse, call one service "
                          f"and print:\n{listing}")
    assert set(NOT_A_USE_CASE) <= {name for name, _ in commands}, "NOT_A_USE_CASE names a command that is gone"


# A command doing the forbidden things, to prove the checker sees them.

def _command_doing_a_services_work(name: str):
    from deckhub.core.engine import new_game, play_out
    from deckhub.services.accounts import find_user
    from deckhub.services.backup import active_runs
    from deckhub.store.db import database

    with database.connection_context():
        user = find_user(name)
        left = active_runs(name)
    return play_out(new_game("kaijudo", None, None)), user, left


def test_the_checker_catches_the_store_the_core_at_work_and_a_second_service():
    report = inspect_view(_command_doing_a_services_work, "POST", CommandWalker)
    assert any("touches the store directly (database)" in p for p in report.problems), report.problems
    assert any("deckhub.core.engine.play_out" in p for p in report.problems), report.problems
    assert any("deckhub.core.engine.new_game" in p for p in report.problems), report.problems
    assert [u.split(" ")[0] for u in report.use_cases] == ["deckhub.services.accounts.find_user",
                                                           "deckhub.services.backup.active_runs"]
