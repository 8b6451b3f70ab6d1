#!/usr/bin/env bash
# Installs what Attention Lab needs on Debian 12, skipping whatever is already
# there, so `npm start` and `npm test` work on a fresh machine and re-runs are
# fast. Debian packages via apt-get (as root, or through sudo), npm packages
# from the lockfile. `setup.sh web` installs only what the page is built from
# (npm start); without it, also what the tests run on (npm test); `setup.sh bench`
# adds what only npm run bench compares with (PyTorch for the ONNX export, onnxruntime-web).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake make                           # the build
  emscripten                           # em++ 3.1.6 → WebAssembly (brings node-acorn, binaryen)
  libeigen3-dev                        # the core's only library
)
if [ "${1:-}" != web ]; then
  packages+=(
    g++ doctest-dev                    # the native build of the doctest suite
    clang-14 libclang-rt-14-dev        # ASan + UBSan build of the tests, libFuzzer
    clang-format-14                    # the C++ layout (.clang-format), checked by npm test
    chromium                           # real-browser tests, driven by playwright-core
    firefox-esr                        # the Firefox smoke suite, driven by puppeteer-core over WebDriver BiDi
    webkit2gtk-driver xvfb             # the WebKit (Safari's engine) smoke suite: WebKitWebDriver, MiniBrowser, a virtual display
    fonts-wqy-microhei fonts-noto-color-emoji  # CJK and emoji glyphs in the browser
    python3-numpy                      # the page's Export → Python script in its test; tests/bert/reference.py
  )
fi
if [ "${1:-}" = bench ]; then
  packages+=(python3-torch)            # bench/bert_onnx.py: BERT-base as ONNX for onnxruntime-web
fi

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$pkg")
done

if ((${#missing[@]})); then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages: install from the lockfile when node_modules is missing or older.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The tests' LRS (Learning Locker's xAPI statement service, for the cmi5 test):
# a folder of its own with its own lockfile, for npm test only.
if [ "${1:-}" != web ]; then
  if [ ! -f tests/lrs/node_modules/.package-lock.json ] || [ tests/lrs/package-lock.json -nt tests/lrs/node_modules/.package-lock.json ]; then
    echo "setup: installing the tests' LRS (tests/lrs: npm ci)"
    (cd tests/lrs && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
  fi
fi

# onnxruntime-web, which npm run bench's BERT section compares with: bench/onnx, its own lockfile.
if [ "${1:-}" = bench ]; then
  if [ ! -f bench/onnx/node_modules/.package-lock.json ] || [ bench/onnx/package-lock.json -nt bench/onnx/node_modules/.package-lock.json ]; then
    echo "setup: installing onnxruntime-web for the bench (bench/onnx: npm ci)"
    (cd bench/onnx && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
