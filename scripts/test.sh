#!/usr/bin/env bash
# Runs every suite: ESLint over the JavaScript (its line limit included),
# clang-format's check of the C++, the C++ core natively, as wasm under Node,
# and under ASan + UBSan with the fuzz corpus replayed (CTest), then
# the JavaScript API and browser tests (node's test runner, whose summary ends
# the output). Exits non-zero if any suite fails. Nothing waits for ever: a
# C++ test over 20 minutes, or a test file over 15 (its tests done or not: a
# handle left open keeps its process alive), fails by name, and the run goes on.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
npm run --silent lint && echo "eslint: no problems" || status=1
git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format-14 --dry-run --Werror && echo "clang-format: every C++ file as .clang-format lays it out" || status=1
ctest --test-dir build/native --output-on-failure --timeout 1200 || status=1
ctest --test-dir build/wasm --output-on-failure --timeout 1200 || status=1
ctest --test-dir build/sanitize --output-on-failure --timeout 1200 || status=1
node --test --test-timeout=900000 tests/js/ tests/browser/ || status=1
exit $status
