#!/usr/bin/env bash
# Compiles kernels.c into kernels.wasm (WebAssembly SIMD) and kernels-relaxed.wasm (relaxed SIMD as
# well), both committed: the page's build needs no C compiler. Debian's clang-19 and wasm-ld-19,
# for wasm64 (the shipped wllama.wasm uses 64-bit memory). Then checks what patch-runtime.ts relies
# on, with llvm-objdump-19 (wabt's wasm-objdump cannot read a 64-bit table): no function calls
# another, reads a global or touches the memory's size.
# Usage: bash scripts/runtime-kernels/build-kernels.sh [OUT_DIR]   (default: this folder)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for tool in clang-19 wasm-ld-19 llvm-objdump-19; do
  command -v "$tool" >/dev/null || { echo "build-kernels: $tool is missing (Debian: apt-get install clang-19 lld-19 llvm-19)" >&2; exit 1; }
done
build() { # name, extra clang flags
  local name="$1"; shift
  clang-19 --target=wasm64-unknown-unknown -O3 -msimd128 "$@" -nostdlib -fno-builtin -ffp-contract=off \
    -ffile-prefix-map="$here"=. -c "$here/kernels.c" -o "$work/$name.o"
  wasm-ld-19 -mwasm64 --no-entry --import-memory --strip-debug -o "$work/$name.wasm" "$work/$name.o"
  local listing
  listing="$(llvm-objdump-19 -d "$work/$name.wasm")"
  grep -q '_dot>:' <<<"$listing" || { echo "build-kernels: llvm-objdump-19 could not read $name.wasm" >&2; exit 1; }
  if grep -E '\b(call|call_indirect|global\.(get|set)|memory\.(grow|size))\b' <<<"$listing"; then
    echo "build-kernels: a kernel in $name.wasm calls a function or uses a global; its body would not mean the same inside the runtime" >&2
    exit 1
  fi
  cp "$work/$name.wasm" "$out/$name.wasm"
}
build kernels
build kernels-relaxed -mrelaxed-simd
