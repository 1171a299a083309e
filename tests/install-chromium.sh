#!/bin/sh
# The browser tests drive Debian's Chromium through Playwright, which never downloads a browser here.
# Installs it when it is missing and we are root; otherwise stops at once and names the one command.
set -eu
chromium=${DECKHUB_CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser tests need Debian's Chromium ($chromium is missing). Install it with:" >&2
  echo "    sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests (apt-get)..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
if [ ! -x "$chromium" ]; then
  echo "apt-get installed chromium, but $chromium is still missing" >&2
  exit 1
fi
