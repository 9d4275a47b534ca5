#!/usr/bin/env bash
# `npm test`: the Debian packages the suites need first (stopping with the command to run when they
# cannot be installed); lint (ESLint with the layering rule, then Prettier's check); unit + integration
# tests on SQLite; the integration tests again on PostgreSQL when TEST_DATABASE_URL is set (each test file makes and drops its own database through it); then the
# Playwright e2e suite in Debian's Chromium against the built app. Ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/ensure-system-packages.sh || exit 1
mkdir -p test-results
rm -f test-results/*.json
status=0

echo "== lint: ESLint and Prettier's check"
npm run -s lint || { echo "== lint failed (ESLint's findings above; npm run format fixes what Prettier reports)"; status=1; }

echo "== vitest: unit and integration on SQLite"
TEST_DB=sqlite npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest-sqlite.json || status=1

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== vitest: integration on PostgreSQL"
  TEST_DB=postgres npx vitest run tests/integration --reporter=default --reporter=json --outputFile.json=test-results/vitest-postgres.json || status=1
else
  echo "== PostgreSQL skipped: set TEST_DATABASE_URL=postgresql://user@host:5432/db to run the integration tests there too"
fi

if [ "${SKIP_E2E:-}" = "1" ]; then
  echo "== e2e skipped (SKIP_E2E=1)"
else
  echo "== e2e: building the app (npm run build)"
  npm run build > test-results/next-build.log 2>&1 || { cat test-results/next-build.log; status=1; }
  echo "== e2e: Playwright in Chromium"
  PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json || status=1
fi

node scripts/test-summary.mjs test-results
exit $status
