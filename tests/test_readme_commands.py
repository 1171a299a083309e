"""The README's two set-up commands are the ones CI runs, and the browser set-up step behaves.

`.ci/run` reads both command lines out of the README with `.ci/readme-command` and runs them as
written, so the README cannot promise a set-up that CI does not prove.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "install-test-tools.sh"


def readme_command(heading: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "readme-command"), heading],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_readme_holds_one_site_command_that_makes_a_venv_and_serves():
    command = readme_command("Run the site")
    steps = [s.strip() for s in command.split("&&")]
    assert steps[0].startswith("python3 -m venv .venv")
    assert ". .venv/bin/activate" in steps
    assert "pip install -e ." in steps
    assert steps[-1] == "deckhub serve"


def test_readme_holds_one_test_command_that_installs_everything_and_runs_pytest():
    command = readme_command("Run the tests")
    steps = [s.strip() for s in command.split("&&")]
    assert steps[0].startswith("python3 -m venv .venv")
    assert "pip install -e '.[test]'" in steps
    assert "sh tests/install-test-tools.sh" in steps
    assert steps[-1] == "python -m pytest"


def test_ci_runs_exactly_the_readme_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '.ci/readme-command "Run the site"' in ci
    assert '.ci/readme-command "Run the tests"' in ci
    assert 'bash -c "$site_command"' in ci
    assert 'eval "$test_command"' in ci


def test_readme_command_refuses_a_block_of_several_lines(tmp_path):
    ci = tmp_path / ".ci"
    ci.mkdir()
    shutil.copy(ROOT / ".ci" / "readme-command", ci / "readme-command")
    (tmp_path / "README.md").write_text("# X\n\n## Run the site\n\n```sh\npip install -e .\ndeckhub serve\n```\n")
    done = subprocess.run([sys.executable, str(ci / "readme-command"), "Run the site"], capture_output=True, text=True)
    assert done.returncode == 1
    assert "one command line" in done.stderr


def _fake_apt(tmp_path: Path) -> tuple[dict, Path]:
    """A PATH whose apt-get only records that it was called."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    (bin_dir / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n")
    (bin_dir / "apt-get").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", DECKHUB_CHROMIUM=str(tmp_path / "no-chromium"),
               DECKHUB_REDIS_SERVER=str(tmp_path / "no-redis-server"))
    return env, log


def test_install_test_tools_does_nothing_when_both_are_there(tmp_path):
    env, log = _fake_apt(tmp_path)
    for name, var in (("chromium", "DECKHUB_CHROMIUM"), ("redis-server", "DECKHUB_REDIS_SERVER")):
        fake = tmp_path / name
        fake.write_text("#!/bin/sh\n")
        fake.chmod(0o755)
        env[var] = str(fake)
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not log.exists()


def test_install_test_tools_as_root_uses_apt_get(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to take the apt-get branch")  # CI and the README's machines run as root
    env, log = _fake_apt(tmp_path)
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True)
    assert "install -y -qq chromium redis-server" in log.read_text()
    assert done.returncode == 1  # the fake apt-get installed nothing, and the script says so
    assert "still missing" in done.stderr


def test_install_test_tools_as_a_user_stops_at_once_and_names_the_command(tmp_path):
    env, log = _fake_apt(tmp_path)
    command = ["sh", "-s"]  # the script on standard input: the other user may not read a root-only clone
    if os.geteuid() == 0:
        tmp_path.chmod(0o755)
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    done = subprocess.run(command, env=env, input=SCRIPT.read_text(), capture_output=True, text=True, timeout=10)
    assert done.returncode == 1
    assert "sudo apt-get install -y chromium redis-server" in done.stderr
    assert not log.exists()
