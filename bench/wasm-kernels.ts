// Which of llama.cpp's dot-product kernels in a wllama.wasm use WebAssembly SIMD: each named
// function's body (the file keeps its name section) and how many of its bytes are the SIMD
// opcode prefix 0xFD (an estimate: an immediate may hold that byte too; 0 means no SIMD
// instruction at all, so the kernel runs one value at a time). Printed by bench:cpu-runtime for
// the shipped runtime and for the lab's patched one (scripts/runtime-kernels).
import { readFileSync } from "node:fs";
import { readFunctions, readSections } from "../scripts/runtime-kernels/wasm-module.ts";

const KERNELS = ["ggml_vec_dot_q4_0_q8_0", "ggml_vec_dot_q4_1_q8_1", "ggml_vec_dot_q8_0_q8_0", "ggml_vec_dot_q4_K_q8_K", "ggml_vec_dot_q6_K_q8_K", "ggml_vec_dot_f16_f32"];

/** Each kernel's body size and count of SIMD-prefix bytes. */
export function simdInKernels(wasm: Uint8Array): Array<{ name: string; bytes: number; simdPrefixes: number }> {
  const functions = readFunctions(readSections(wasm));
  return KERNELS.flatMap((name) => {
    const index = functions.indexByName.get(name);
    const body = index === undefined ? undefined : functions.bodies[index - functions.importedFunctions];
    return body ? [{ name, bytes: body.length, simdPrefixes: body.filter((byte) => byte === 0xfd).length }] : [];
  });
}

export const readWasm = (path: string) => readFileSync(path);
