#!/usr/bin/env bash
# Makes sure what the real-model setup needs is here: pip (the models come from PyPI wheels) and a
# C++ toolchain with CMake and git (llama-server is built from source once per machine), and
# clang-19 for WebAssembly (the CPU engine's kernels). On a
# Debian machine where we are root, missing packages are installed; elsewhere we say what to get.
set -euo pipefail
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v git >/dev/null 2>&1 || missing+=(git)
python3 -c "import pip" >/dev/null 2>&1 || missing+=(python3-pip)
# The CPU engine's SIMD kernels (scripts/runtime-kernels/kernels.wasm is committed; these rebuild
# and check it): clang and wasm-ld for wasm64, wabt's wasm-objdump for the build's checks.
command -v clang-19 >/dev/null 2>&1 || missing+=(clang-19)
command -v wasm-ld-19 >/dev/null 2>&1 || missing+=(lld-19)
command -v wasm-objdump >/dev/null 2>&1 || missing+=(wabt)
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "ensure-build-tools: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "ensure-build-tools: missing ${missing[*]}; install them (the real models come from PyPI with pip, llama-server is built with CMake)." >&2
exit 1
