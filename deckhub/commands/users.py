"""`deckhub user add` and `deckhub user password`: manage accounts from the command line."""
from __future__ import annotations

import sys

import click

from deckhub.commands.site import open_app


@click.group()
def user() -> None:
    """Manage accounts."""


@user.command("add")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--curator", is_flag=True, help="The account may review community card facts.")
def user_add(name: str, password_stdin: bool, curator: bool) -> None:
    """Create an account from the command line."""
    from deckhub.services.accounts import AccountError, create_user

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    open_app()
    try:
        account = create_user(name, password, curator=curator)
    except AccountError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"created {account.username}" + (" (curator)" if account.is_curator else ""))


@user.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the new password from standard input.")
def user_password(name: str, password_stdin: bool) -> None:
    """Set an account's password (an account imported without one cannot log in until then)."""
    from deckhub.services.accounts import AccountError, set_password_of

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    open_app()
    try:
        account = set_password_of(name, password)
    except AccountError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"password set for {account.username}; their other sessions were signed out")
