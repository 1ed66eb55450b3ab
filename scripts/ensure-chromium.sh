#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests and `npm run bench:web` when it is missing
# (Playwright's own browser download cannot work here), and Debian's chromium-headless-shell, the
# same Chromium built for headless use only, which the end-to-end scenarios prefer: it ran them in
# four fifths of the full browser's time on two cores. Needs root or passwordless sudo the first time.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
HEADLESS_SHELL=/usr/lib/chromium/chromium-headless-shell
packages=()
[ -x "$CHROMIUM" ] || packages+=(chromium)
[ -x "$HEADLESS_SHELL" ] || packages+=(chromium-headless-shell)
[ ${#packages[@]} -gt 0 ] || exit 0

echo "Installing Debian's ${packages[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null; }; then
  # Without the headless shell the scenarios run in the full browser, only slower.
  [ -x "$CHROMIUM" ] || { echo "Could not install Debian's chromium; install it, or set CHROMIUM_PATH to a Chromium" >&2; exit 1; }
  echo "Could not install chromium-headless-shell: the end-to-end scenarios use $CHROMIUM" >&2
fi
test -x "$CHROMIUM"
