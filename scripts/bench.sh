#!/usr/bin/env bash
# npm run bench: builds what the benchmarks need and runs them (bench/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh bench
bash scripts/build.sh
cmake --build build/native --target bench_native bench_train bench_session bench_session_sse --parallel "$(nproc)"
cmake --build build/wasm --target bench_simd_ceiling --parallel "$(nproc)"
node bench/run.mjs "$@"
