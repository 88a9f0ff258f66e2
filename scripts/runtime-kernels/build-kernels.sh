#!/usr/bin/env bash
# Compiles kernels.c into kernels.wasm (committed: the page's build needs no C compiler) with
# Debian's clang-19 and wasm-ld-19 for wasm64 (the shipped wllama.wasm uses 64-bit memory) and
# SIMD, then checks what patch-runtime.ts relies on: no function calls another or reads a global.
# Usage: bash scripts/runtime-kernels/build-kernels.sh [OUT]   (default: kernels.wasm beside it)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/kernels.wasm}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for tool in clang-19 wasm-ld-19; do
  command -v "$tool" >/dev/null || { echo "build-kernels: $tool is missing (Debian: apt-get install clang-19 lld-19)" >&2; exit 1; }
done
clang-19 --target=wasm64-unknown-unknown -O3 -msimd128 -nostdlib -fno-builtin -ffp-contract=off \
  -ffile-prefix-map="$here"=. -c "$here/kernels.c" -o "$work/kernels.o"
wasm-ld-19 -mwasm64 --no-entry --import-memory --strip-debug -o "$work/kernels.wasm" "$work/kernels.o"
if command -v wasm-objdump >/dev/null; then
  if wasm-objdump -d "$work/kernels.wasm" | grep -E '\b(call|call_indirect|global\.(get|set)|memory\.(grow|size))\b'; then
    echo "build-kernels: a kernel calls a function or uses a global; its body would not mean the same inside the runtime" >&2
    exit 1
  fi
fi
cp "$work/kernels.wasm" "$out"
