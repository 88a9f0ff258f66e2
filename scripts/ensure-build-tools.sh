#!/usr/bin/env bash
# Makes sure what the real-model setup needs is here: pip (the models come from PyPI wheels) and a
# C++ toolchain with CMake and git (llama-server is built from source once per machine). On a
# Debian machine where we are root, missing packages are installed; elsewhere we say what to get.
# Also, where it can, clang-19 for WebAssembly: optional, since the CPU engine's kernels are
# committed (scripts/runtime-kernels/kernels.wasm) and only the test that rebuilds them needs it
# (it skips, saying so, without).
set -euo pipefail
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v git >/dev/null 2>&1 || missing+=(git)
python3 -c "import pip" >/dev/null 2>&1 || missing+=(python3-pip)
# clang and wasm-ld for wasm64, llvm-objdump for build-kernels.sh's checks.
optional=()
command -v clang-19 >/dev/null 2>&1 || optional+=(clang-19)
command -v wasm-ld-19 >/dev/null 2>&1 || optional+=(lld-19)
command -v llvm-objdump-19 >/dev/null 2>&1 || optional+=(llvm-19)
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq || true
  if [ ${#missing[@]} -gt 0 ]; then
    echo "ensure-build-tools: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if [ ${#optional[@]} -gt 0 ]; then
    echo "ensure-build-tools: installing ${optional[*]} (to rebuild and check the CPU engine's kernels)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${optional[@]}" >/dev/null ||
      echo "ensure-build-tools: could not install ${optional[*]}; the kernels' rebuild check will be skipped" >&2
  fi
  exit 0
fi
if [ ${#optional[@]} -gt 0 ]; then
  echo "ensure-build-tools: ${optional[*]} not found; the CPU engine's kernels (committed) will not be rebuilt and checked (Debian: apt-get install clang-19 lld-19 llvm-19)." >&2
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ensure-build-tools: missing ${missing[*]}; install them (the real models come from PyPI with pip, llama-server is built with CMake)." >&2
exit 1
