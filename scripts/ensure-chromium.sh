#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests and `npm run bench:web` when it is missing
# (Playwright's own browser download cannot work here). Needs root or passwordless sudo the first time.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "Chromium not found at $CHROMIUM: installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
test -x "$CHROMIUM"
