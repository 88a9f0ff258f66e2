// Which of llama.cpp's dot-product kernels in the shipped wllama.wasm use WebAssembly SIMD: each
// named function's body (the file keeps its name section) and how many of its bytes are the SIMD
// opcode prefix 0xFD. A kernel with none runs one value at a time. Printed by bench:cpu-runtime.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const KERNELS = ["ggml_vec_dot_q4_0_q8_0", "ggml_vec_dot_q4_1_q8_1", "ggml_vec_dot_q8_0_q8_0", "ggml_vec_dot_q4_K_q8_K", "ggml_vec_dot_q6_K_q8_K", "ggml_vec_dot_f16_f32"];

export function wllamaWasmPath(): string {
  return createRequire(import.meta.url).resolve("@wllama/wllama/esm/wasm/wllama.wasm");
}

/** Each kernel's body size and count of SIMD-prefix bytes (0 means no SIMD instruction at all). */
export function simdInKernels(path = wllamaWasmPath()): Array<{ name: string; bytes: number; simdPrefixes: number }> {
  const wasm = readFileSync(path);
  let at = 8;
  const leb = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = wasm[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return value;
    }
  };
  const sections = new Map<number | string, { start: number; end: number }>();
  while (at < wasm.length) {
    const id = wasm[at++]!;
    const size = leb();
    const start = at;
    if (id === 0) {
      const nameLength = leb();
      sections.set(wasm.subarray(at, at + nameLength).toString("utf8"), { start: at + nameLength, end: start + size });
    } else sections.set(id, { start, end: start + size });
    at = start + size;
  }
  // Imported functions come first in the function index space.
  let importedFunctions = 0;
  const imports = sections.get(2);
  if (imports) {
    at = imports.start;
    // Skips a length-prefixed name (the length is read first: `at += leb()` would add it to the old place).
    const skipName = () => {
      const length = leb();
      at += length;
    };
    for (let n = leb(); n > 0; n--) {
      skipName(); // module
      skipName(); // field
      const kind = wasm[at++]!;
      if (kind === 0) {
        leb();
        importedFunctions++;
      } else if (kind === 1) {
        at++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = wasm[at++]!;
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) at += 2;
      else if (kind === 4) {
        at++;
        leb();
      }
    }
  }
  const names = new Map<string, number>();
  const nameSection = sections.get("name");
  if (nameSection) {
    at = nameSection.start;
    while (at < nameSection.end) {
      const sub = wasm[at++]!;
      const size = leb();
      const end = at + size;
      if (sub === 1) {
        for (let n = leb(); n > 0; n--) {
          const index = leb();
          const length = leb();
          names.set(wasm.subarray(at, at + length).toString("utf8"), index);
          at += length;
        }
      }
      at = end;
    }
  }
  const bodies = new Map<number, Buffer>();
  const code = sections.get(10);
  if (code) {
    at = code.start;
    const count = leb();
    for (let k = 0; k < count; k++) {
      const size = leb();
      bodies.set(importedFunctions + k, wasm.subarray(at, at + size));
      at += size;
    }
  }
  return KERNELS.flatMap((name) => {
    const body = bodies.get(names.get(name) ?? -1);
    return body ? [{ name, bytes: body.length, simdPrefixes: body.filter((byte) => byte === 0xfd).length }] : [];
  });
}
