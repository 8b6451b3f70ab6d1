#!/usr/bin/env bash
# Fuzzes the core for a while (default 60 s):   npm run fuzz -- 600
# New interesting inputs go to build/fuzz-corpus/; the seed corpus in
# tests/fuzz/corpus/ is read, not changed. A crash is written as crash-* in the
# current folder: copy it into tests/fuzz/corpus/ (npm test then replays it
# under ASan + UBSan for good) and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/setup.sh
[ -f build/sanitize/CMakeCache.txt ] || CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTENTION_SANITIZE=ON >/dev/null
cmake --build build/sanitize --parallel "$(nproc)" --target fuzz_attention
mkdir -p build/fuzz-corpus
exec build/sanitize/fuzz_attention -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -max_len=40000 build/fuzz-corpus tests/fuzz/corpus
