#!/usr/bin/env bash
# The server suites (SQLite, then PostgreSQL and Redis) and the end-to-end scenarios on Node.js 24
# LTS, in scripts/node24.sh's copy of the tree: CI runs them after every suite on Node 20, which
# the project still supports.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/node24.sh bash -c 'npx vitest run --project server && npm run test:postgres && npm run test:e2e'
