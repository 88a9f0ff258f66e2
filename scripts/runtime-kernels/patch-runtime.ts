// The page's llama.cpp runtime: wllama's shipped wllama.wasm with the bodies of its scalar 4-bit
// dot-product kernels replaced by the SIMD ones compiled from kernels.c (kernels.wasm). Pure: bytes
// in, bytes out; the Vite plugin (vite-plugin.ts) serves the result, bench/cpu-runtime.ts measures
// both. Refuses, with the reason, anything it cannot do exactly (a missing name, another signature).
import { readFunctions, readSections, sameBytes, withBodies, writeModule } from "./wasm-module.ts";

/** Each kernel of kernels.wasm and the runtime function whose body it replaces. */
export const KERNEL_TARGETS: ReadonlyArray<{ kernel: string; replaces: string }> = [
  { kernel: "q4_1_q8_1_dot", replaces: "ggml_vec_dot_q4_1_q8_1" },
  { kernel: "q4_0_q8_0_dot", replaces: "ggml_vec_dot_q4_0_q8_0" },
  { kernel: "q8_0_q8_0_dot", replaces: "ggml_vec_dot_q8_0_q8_0" },
];

export interface PatchedRuntime {
  bytes: Uint8Array<ArrayBuffer>;
  replaced: Array<{ name: string; kernel: string; shippedBytes: number; kernelBytes: number }>;
}

export function patchRuntime(runtime: Uint8Array, kernels: Uint8Array): PatchedRuntime {
  const runtimeSections = readSections(runtime);
  const target = readFunctions(runtimeSections);
  const source = readFunctions(readSections(kernels));
  if (source.importedFunctions !== 0) throw new Error("kernels.wasm imports functions: its bodies could call into the wrong place");
  const bodies = [...target.bodies];
  const replaced: PatchedRuntime["replaced"] = [];
  for (const { kernel, replaces } of KERNEL_TARGETS) {
    const from = source.indexByName.get(kernel);
    if (from === undefined) throw new Error(`kernels.wasm has no function ${kernel}`);
    const to = target.indexByName.get(replaces);
    if (to === undefined) throw new Error(`the runtime has no function named ${replaces} (a wllama build without its name section, or another llama.cpp)`);
    if (to < target.importedFunctions) throw new Error(`${replaces} is imported, not defined, in the runtime`);
    const kernelType = source.types[source.typeOf[from]!]!;
    const runtimeType = target.types[target.typeOf[to]!]!;
    if (!sameBytes(kernelType, runtimeType)) throw new Error(`${kernel} and ${replaces} have different signatures`);
    const shipped = bodies[to - target.importedFunctions]!;
    const body = source.bodies[from - source.importedFunctions]!;
    bodies[to - target.importedFunctions] = body;
    replaced.push({ name: replaces, kernel, shippedBytes: shipped.length, kernelBytes: body.length });
  }
  return { bytes: writeModule(withBodies(runtimeSections, bodies)), replaced };
}
