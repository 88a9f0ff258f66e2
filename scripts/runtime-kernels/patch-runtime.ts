// The page's llama.cpp runtime: wllama's shipped wllama.wasm with the bodies of its scalar 4-bit
// dot-product kernels replaced by the SIMD ones compiled from kernels.c (kernels.wasm), and one
// instruction edited where wllama's JSON output throws on text that is not UTF-8 (RUNTIME_EDITS).
// Pure: bytes in, bytes out; the Vite plugin (vite-plugin.ts) serves the result, bench/cpu-runtime.ts measures
// both. Refuses, with the reason, anything it cannot do exactly (a missing name, another signature).
import { readFunctions, readSections, sameBytes, withBodies, writeModule } from "./wasm-module.ts";

/** Each kernel of kernels.wasm and the runtime function whose body it replaces. */
export const KERNEL_TARGETS: ReadonlyArray<{ kernel: string; replaces: string }> = [
  { kernel: "q4_1_q8_1_dot", replaces: "ggml_vec_dot_q4_1_q8_1" },
  { kernel: "q4_0_q8_0_dot", replaces: "ggml_vec_dot_q4_0_q8_0" },
  { kernel: "q8_0_q8_0_dot", replaces: "ggml_vec_dot_q8_0_q8_0" },
];

/**
 * Edits of single instructions inside named runtime functions: each finds one exact byte sequence
 * in the function's body (it must occur once) and writes its replacement, of the same length.
 */
export const RUNTIME_EDITS: ReadonlyArray<{ name: string; function: string; signature: string; find: readonly number[]; replace: readonly number[]; why: string }> = [
  {
    name: "json-replace-invalid-utf8",
    function: "nlohmann::json_abi_v3_12_0::basic_json<nlohmann::...>::dump",
    // (result, this, indent, error_handler) -> (): the other arguments were folded into constants.
    signature: "60047e7e7f7f00",
    // `local.get 3; i32.store offset=648` (the serializer's error handler, from the argument) becomes
    // `i32.const 1; i32.store offset=648` (nlohmann's error_handler_t::replace).
    find: [0x20, 0x03, 0x36, 0x02, 0x88, 0x05],
    replace: [0x41, 0x01, 0x36, 0x02, 0x88, 0x05],
    why:
      "A token's text is often part of a UTF-8 character (an emoji, a CJK character): with token probabilities asked for, wllama " +
      "writes such pieces into its JSON reply with nlohmann's strict handler, which throws; the call then ends with no reply " +
      "and the worker reads the request's magic \"GLUE\" as the reply's length (\"Invalid typed array length: 1163217991\"). " +
      "llama-server writes its replies with the replacing handler (U+FFFD for each invalid byte); so does the runtime now.",
  },
];

export interface PatchedRuntime {
  bytes: Uint8Array<ArrayBuffer>;
  replaced: Array<{ name: string; kernel: string; shippedBytes: number; kernelBytes: number }>;
  edited: string[];
}

/** Finds where `find` occurs in `body`: exactly once, or the reason it cannot be edited. */
function onlyOccurrence(body: Uint8Array, find: readonly number[], what: string): number {
  const at: number[] = [];
  for (let i = 0; i + find.length <= body.length; i++) if (find.every((b, k) => body[i + k] === b)) at.push(i);
  if (at.length !== 1) throw new Error(`${what}: the instructions to edit occur ${at.length} times in the function, not once (another wllama build?)`);
  return at[0]!;
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
    if (target.sharedNames.has(replaces)) throw new Error(`the runtime names more than one function ${replaces}`);
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
  const edited: string[] = [];
  for (const edit of RUNTIME_EDITS) {
    const index = target.indexByName.get(edit.function);
    if (index === undefined || index < target.importedFunctions) throw new Error(`${edit.name}: the runtime defines no function named ${edit.function}`);
    if (target.sharedNames.has(edit.function)) throw new Error(`${edit.name}: the runtime names more than one function ${edit.function}`);
    const type = Array.from(target.types[target.typeOf[index]!]!, (b) => b.toString(16).padStart(2, "0")).join("");
    if (type !== edit.signature) throw new Error(`${edit.name}: ${edit.function} has another signature (${type}) than the edit was made for`);
    const body = Uint8Array.from(bodies[index - target.importedFunctions]!);
    body.set(edit.replace, onlyOccurrence(body, edit.find, edit.name));
    bodies[index - target.importedFunctions] = body;
    edited.push(edit.name);
  }
  return { bytes: writeModule(withBodies(runtimeSections, bodies)), replaced, edited };
}
