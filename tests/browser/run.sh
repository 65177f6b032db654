#!/bin/sh
# Runs the browser tests: installs playwright-core if needed, then Node's test runner.
# Needs the server binary (target/debug/stolik, or STOLIK_BIN) and Chromium (/usr/bin/chromium,
# or CHROMIUM): without it the tests that need it are reported as skipped (helpers.mjs), unless
# STOLIK_REQUIRE_BROWSER=1.
set -e
cd "$(dirname "$0")"
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ]; then
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi
# A test that waits for something that never comes fails after two minutes instead of holding
# the whole run; the longest test takes about ten seconds.
exec node --test --test-concurrency=1 --test-timeout=120000 "$@" ./*.test.mjs
