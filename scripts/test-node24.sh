#!/usr/bin/env bash
# The server suites on Node.js 24 LTS, with the project's node_modules (scripts/node24.sh): on
# SQLite (better-sqlite3 13, the driver only Node 22 and later load), then on PostgreSQL and Redis
# (npm run test:postgres). The end-to-end scenarios run once, in npm test on Node 20: what they add
# over the server suites is the browser's side, which does not change with the server's Node. Their
# production server does run on Node 24 here: src/production-start.test.ts starts the build.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/node24.sh bash -c 'npx vitest run --project server && npm run test:postgres'
