#!/usr/bin/env bash
# Builds the three CMake trees, incrementally:
#   build/native  g++: the core and its doctest suite
#   build/wasm    em++: the same suite for Node, and the JavaScript module in web/generated/
#   build/sanitize  clang with ASan + UBSan: the suite again, and the libFuzzer target
# `build.sh web` builds only what the page, the element, the npm package and
# the SCORM package are made of: the core as wasm and the bundles, in build/wasm
# (npm start, npm pack). Without it, everything the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "${1:-}" = web ]; then
  cmake --build build/wasm --parallel "$jobs" --target attention_lab_app attention_lab_page attention_lab_single attention_lab_trainer attention_lab_models
  exit 0
fi
cmake --build build/wasm --parallel "$jobs"

[ -f build/native/CMakeCache.txt ] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native --parallel "$jobs"

[ -f build/sanitize/CMakeCache.txt ] || CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTENTION_SANITIZE=ON >/dev/null
cmake --build build/sanitize --parallel "$jobs"
