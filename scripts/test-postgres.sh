#!/usr/bin/env bash
# Runs the server test suites against PostgreSQL and Redis (each test server gets a schema of its own).
set -euo pipefail
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
echo "Server tests on ${DATABASE_URL%%\?*} with Redis ${REDIS_URL}"
npx vitest run --project server
