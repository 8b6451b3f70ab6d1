// The doctest runner for the core's suite (native and wasm builds alike).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>
