#!/usr/bin/env bash
# npm run train: the corpus from Debian packages (scripts/corpus.mjs), then the
# trainer (cpp/train/train_main.cpp), built natively for this machine. Options
# go to the trainer, e.g.  npm run train -- --steps 20000 --model-file /tmp/mine.almodel
# Writes build/model/{encoder.bin,vocab.txt} and the shipped model file
# web/models/trained.almodel (docs/model.md gives its checksum), and the training lab's text
# web/models/training-text.txt (docs/training.md). Not part of npm start or npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f build/native/CMakeCache.txt ] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native --target train_encoder --parallel "$(nproc)"
node scripts/corpus.mjs
node scripts/training-text.mjs
exec build/native/train_encoder "$@"
