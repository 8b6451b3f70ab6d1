#!/usr/bin/env bash
# Builds the three CMake trees, incrementally:
#   build/native  g++: the core and its doctest suite
#   build/wasm    em++: the same suite for Node, and the JavaScript module in web/generated/
#   build/sanitize  clang with ASan + UBSan: the suite again, and the libFuzzer target
# `build.sh web` builds build/wasm only: what the page, the element, the npm
# package and the SCORM package are made of.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

[ -f build/native/CMakeCache.txt ] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native --parallel "$jobs"

[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm --parallel "$jobs"
[ "${1:-}" = web ] && exit 0

[ -f build/sanitize/CMakeCache.txt ] || CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTENTION_SANITIZE=ON >/dev/null
cmake --build build/sanitize --parallel "$jobs"
