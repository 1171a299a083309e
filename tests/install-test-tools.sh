#!/bin/sh
# What the tests need from Debian beside the Python packages: Chromium for the browser tests
# (Playwright drives it and never downloads a browser here) and redis-server for the job tests on
# Redis. Installs what is missing when we are root; otherwise stops at once and names the command.
set -eu
chromium=${DECKHUB_CHROMIUM:-/usr/bin/chromium}
redis=${DECKHUB_REDIS_SERVER:-/usr/bin/redis-server}
missing=""
[ -x "$chromium" ] || missing="$missing chromium"
[ -x "$redis" ] || missing="$missing redis-server"
if [ -z "$missing" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "The tests need Debian's$missing (not installed). Install with:" >&2
  echo "    sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "Installing Debian's$missing for the tests (apt-get)..." >&2
apt-get update -qq
# shellcheck disable=SC2086  # the package names are meant to split
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
for tool in "$chromium" "$redis"; do
  if [ ! -x "$tool" ]; then
    echo "apt-get ran, but $tool is still missing" >&2
    exit 1
  fi
done
