#!/usr/bin/env bash
# The server suites (SQLite, then PostgreSQL and Redis) on Node.js 24 LTS, in scripts/node24.sh's
# copy of the tree: CI runs them after every suite on Node 20, which the project still supports.
# The end-to-end scenarios run once, in npm test: what they add over the server suites is the
# browser's side, which does not change with the server's Node (a second run cost CI half an hour).
# Their production server does run on Node 24 here: src/production-start.test.ts starts the build.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/node24.sh bash -c 'npx vitest run --project server && npm run test:postgres'
