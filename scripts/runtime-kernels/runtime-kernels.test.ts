import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KERNEL_TARGETS, patchRuntime } from "./patch-runtime.ts";
import { kernelsPath, shippedRuntimePath } from "./vite-plugin.ts";
import { readFunctions, readSections, sameBytes, writeModule } from "./wasm-module.ts";

const shipped = readFileSync(shippedRuntimePath());
const kernels = readFileSync(kernelsPath());

describe("wasm-module", () => {
  it("writes back the shipped runtime and the kernels byte for byte", () => {
    expect(sameBytes(writeModule(readSections(shipped)), shipped)).toBe(true);
    expect(sameBytes(writeModule(readSections(kernels)), kernels)).toBe(true);
  });
});

describe("patchRuntime", () => {
  const patched = patchRuntime(shipped, kernels);
  const before = readFunctions(readSections(shipped));
  const after = readFunctions(readSections(patched.bytes));
  const source = readFunctions(readSections(kernels));

  it("puts each kernel's body in place of the runtime function it replaces, and changes nothing else", () => {
    expect(patched.replaced.map((r) => r.name)).toEqual(KERNEL_TARGETS.map((t) => t.replaces));
    const replacedIndices = new Set<number>();
    for (const { kernel, replaces } of KERNEL_TARGETS) {
      const index = after.indexByName.get(replaces)!;
      replacedIndices.add(index);
      expect(sameBytes(after.bodies[index - after.importedFunctions]!, source.bodies[source.indexByName.get(kernel)!]!)).toBe(true);
      expect(sameBytes(after.bodies[index - after.importedFunctions]!, before.bodies[index - before.importedFunctions]!)).toBe(false);
    }
    expect(after.bodies.length).toBe(before.bodies.length);
    const unchanged = after.bodies.every((body, k) => replacedIndices.has(k + after.importedFunctions) || sameBytes(body, before.bodies[k]!));
    expect(unchanged).toBe(true);
    const otherSections = (bytes: Uint8Array) => readSections(bytes).filter((s) => s.id !== 10);
    expect(otherSections(patched.bytes).every((s, k) => sameBytes(s.payload, otherSections(shipped)[k]!.payload))).toBe(true);
  });

  it("makes a module the engine can compile (64-bit memory, SIMD, threads, exceptions as shipped)", () => {
    // Validation only needs the module's features, which this Node may lack (64-bit memory): where
    // it has them, the patched module must validate exactly as the shipped one does.
    let shippedValid: boolean;
    try {
      shippedValid = WebAssembly.validate(shipped);
    } catch {
      shippedValid = false;
    }
    expect(WebAssembly.validate(patched.bytes)).toBe(shippedValid);
  });

  it("refuses a runtime without the named kernel, and a kernel of another signature, saying which", () => {
    expect(() => patchRuntime(kernels, kernels)).toThrow(/has no function named ggml_vec_dot_q4_1_q8_1/);
  });
});

describe("kernels.wasm", () => {
  it("gives the generic kernels' results bit for bit on 3,000 random block rows (q4_1 and q4_0)", () => {
    const run = spawnSync(process.execPath, ["--experimental-wasm-memory64", "--import", "tsx", join(import.meta.dirname, "kernels-check.ts")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout.trim()) as { cases: number; mismatches: string[] };
    expect(result.cases).toBe(3000);
    expect(result.mismatches).toEqual([]);
  });

  const clang = spawnSync("clang-19", ["--version"]).status === 0 && spawnSync("wasm-ld-19", ["--version"]).status === 0;
  it.skipIf(!clang)("is what build-kernels.sh compiles from kernels.c (clang-19, wasm-ld-19)", () => {
    const dir = mkdtempSync(join(tmpdir(), "kernels-"));
    try {
      const build = spawnSync("bash", [join(import.meta.dirname, "build-kernels.sh"), join(dir, "kernels.wasm")], { encoding: "utf8" });
      expect(build.status, build.stderr).toBe(0);
      expect(sameBytes(readFileSync(join(dir, "kernels.wasm")), kernels)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
