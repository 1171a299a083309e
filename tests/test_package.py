"""The package installs: a wheel built from the checkout, installed in a fresh virtual environment
outside it, serves the four catalogues, their pages and the static files with no checkout in sight.

`python -m build` makes the sdist and then the wheel from that sdist, so the wheel's contents also
prove the sdist carries templates/, data/ and the static files. The installed site borrows the
test environment's dependencies (CI's site command proves the declared ones are enough to serve).
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from deckhub.games import read_game_catalogue

ROOT = Path(__file__).resolve().parents[1]
# The installed site keeps its own SQLite database, whatever database the suite runs on: once is enough.
pytestmark = pytest.mark.skipif(bool(os.environ.get("DECKHUB_TEST_DATABASE_URL")),
                                reason="the package test runs once, in the SQLite pass (its site has its own database)")
SERVER_START_SECONDS = 60


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel, built from the checkout into a temp folder (nothing written in the checkout)."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, ROOT], cwd=out)
    return out


@pytest.fixture(scope="module")
def site(dist, tmp_path_factory) -> dict:
    """A fresh virtual environment with the wheel installed, and an environment for running its
    commands from an empty folder: no checkout on the path, an SQLite database in a temp folder."""
    base = tmp_path_factory.mktemp("installed")
    venv = base / "venv"
    # No pip of its own (ensurepip takes seconds): the test's pip installs into it with --python.
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    [wheel] = dist.glob("deckhub-*.whl")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
          "--disable-pip-version-check", wheel], cwd=base)
    # The dependencies are the ones this test runs on, seen through a .pth line after the venv's own
    # site-packages (so its deckhub comes first; the test checks that): resolving ~30 packages from
    # the index took 9-25 s. Nested .pth files are not read, so an editable deckhub there stays out.
    own = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    borrowed = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (own / "test-dependencies.pth").write_text("".join(f"{path}\n" for path in borrowed))
    run_dir = base / "run"
    run_dir.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not k.startswith(("DECKHUB_", "DATABASE_"))}
    env["DATABASE_URL"] = f"sqlite:///{run_dir / 'site.sqlite3'}"
    return {"venv": venv, "bin": venv / "bin", "cwd": run_dir, "env": env}


def _installed(site, code: str, **env) -> str:
    return _run([site["bin"] / "python", "-c", code], cwd=site["cwd"], env={**site["env"], **env}).stdout.strip()


def test_the_sdist_carries_templates_static_files_and_catalogues(dist):
    [sdist] = dist.glob("deckhub-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    assert {"templates/base.html", "deckhub/static/deckhub.css", "data/kaijudo/sets/dojo-edition.xml",
            "data/neopets-tcg/cards.json", "deckhub/services/common_passwords.txt"} <= names


def test_the_wheel_carries_them_inside_the_package(dist):
    [wheel] = dist.glob("deckhub-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(ROOT).as_posix() for top in ("templates", "data") for p in (ROOT / top).rglob("*")
               if p.is_file()}
    assert {f"deckhub/{name}" for name in shipped} <= names
    static = {p.relative_to(ROOT).as_posix() for p in (ROOT / "deckhub" / "static").rglob("*") if p.is_file()}
    assert static and static <= names
    assert not [n for n in names if n.startswith(("templates/", "data/", "tests/"))]


def test_the_installed_package_is_the_wheels_and_finds_its_files(site):
    found = _installed(site, "import deckhub, deckhub.app; from deckhub.importers.catalogue import data_root; "
                             "print(deckhub.__file__); print(deckhub.app.TEMPLATES); print(data_root())")
    module, templates, data = (Path(line) for line in found.splitlines())
    site_packages = module.parent.parent
    assert site_packages.is_relative_to(site["venv"]) and site_packages.name == "site-packages"
    assert templates == site_packages / "deckhub" / "templates" and (templates / "base.html").is_file()
    assert data == site_packages / "deckhub" / "data"
    other = site["cwd"] / "my-data"
    assert _installed(site, "from deckhub.importers.catalogue import data_root; print(data_root())",
                      DECKHUB_DATA_DIR=str(other)) == str(other)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode("utf-8", "replace")


def _wait_until_up(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"deckhub serve exited {server.returncode}:\n{log.read_text()}")
        try:
            _get(url)
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"deckhub serve did not answer {url} within {SERVER_START_SECONDS} s")


def test_the_installed_site_serves_the_four_catalogues(site):
    deckhub = site["bin"] / "deckhub"
    # `db upgrade` makes the schema and loads the shipped catalogues, as an operator's first step does.
    upgraded = _run([deckhub, "db", "upgrade"], cwd=site["cwd"], env=site["env"]).stdout
    assert all(f"{p.name}: " in upgraded for p in (ROOT / "data").iterdir() if p.is_dir()), upgraded
    # An account: the password check reads the word list shipped inside the package.
    made = _run([deckhub, "user", "add", "ada", "--password-stdin"], input="a long enough passphrase\n",
                cwd=site["cwd"], env=site["env"])
    assert "created ada" in made.stdout

    port = _free_port()
    log = site["cwd"] / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen([str(deckhub), "serve", "--port", str(port)], cwd=site["cwd"], env=site["env"],
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{base}/", server, log)
        status, _, home = _get(f"{base}/")
        assert status == 200, home
        for path in ("/static/deckhub.css", "/assets/catalog.css"):
            status, kind, css = _get(base + path)
            assert status == 200 and kind.startswith("text/css") and css.strip(), (path, status, css)
        games = sorted(p.name for p in (ROOT / "data").iterdir() if p.is_dir())
        assert games
        for slug in games:
            expected = len(read_game_catalogue(slug, ROOT / "data").cards)
            assert expected > 0
            shown = re.search(rf'id="game-{slug}".*?<p>([\d,]+) cards,', home, re.S)
            assert shown and int(shown.group(1).replace(",", "")) == expected, slug
            status, _, page = _get(f"{base}/cards?game={slug}")
            assert status == 200
            assert f'id="results-h">{expected} cards<' in page, slug
    finally:
        _stop_group(server)


def _stop_group(server: subprocess.Popen) -> None:
    """Stop `deckhub serve` and the queue worker it started (one process group), killing what lingers."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(15)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(5)
