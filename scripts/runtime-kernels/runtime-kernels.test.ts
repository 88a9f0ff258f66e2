import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { describe, expect, it } from "vitest";
import { baseChromiumArgs, systemChromiumPath } from "../../e2e/browser.ts";
import { instantiableKernels, kernelCases, mismatches, runCasesInPage } from "./kernels-check.ts";
import { KERNEL_TARGETS, patchRuntime, RUNTIME_EDITS } from "./patch-runtime.ts";
import { kernelsPath, shippedRuntimePath } from "./vite-plugin.ts";
import { readFunctions, readSections, sameBytes, withBodies, writeModule } from "./wasm-module.ts";

const shipped = readFileSync(shippedRuntimePath());
const kernels = readFileSync(kernelsPath("simd"));
const relaxedKernels = readFileSync(kernelsPath("relaxed-simd"));

describe("wasm-module", () => {
  it("writes back the shipped runtime and the kernels byte for byte", () => {
    expect(sameBytes(writeModule(readSections(shipped)), shipped)).toBe(true);
    expect(sameBytes(writeModule(readSections(kernels)), kernels)).toBe(true);
    expect(sameBytes(writeModule(readSections(relaxedKernels)), relaxedKernels)).toBe(true);
  });
});

describe.each([
  ["kernels.wasm", kernels],
  ["kernels-relaxed.wasm", relaxedKernels],
])("patchRuntime with %s", (_name, kernels) => {
  const patched = patchRuntime(shipped, kernels);
  const before = readFunctions(readSections(shipped));
  const after = readFunctions(readSections(patched.bytes));
  const source = readFunctions(readSections(kernels));

  it("puts each kernel's body in place of the runtime function it replaces, edits the JSON writer's one instruction, and changes nothing else", () => {
    expect(patched.replaced.map((r) => r.name)).toEqual(KERNEL_TARGETS.map((t) => t.replaces));
    expect(patched.edited).toEqual(RUNTIME_EDITS.map((e) => e.name));
    const replacedIndices = new Set<number>();
    for (const edit of RUNTIME_EDITS) {
      const index = after.indexByName.get(edit.function)!;
      replacedIndices.add(index);
      const was = before.bodies[index - before.importedFunctions]!;
      const now = after.bodies[index - after.importedFunctions]!;
      expect(now.length).toBe(was.length);
      const differing = [...now.keys()].filter((k) => now[k] !== was[k]);
      // local.get 3 (0x20 0x03) became i32.const 1 (0x41 0x01): two bytes, side by side.
      expect(differing.map((k) => [was[k], now[k]])).toEqual([[0x20, 0x41], [0x03, 0x01]]);
    }
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

  it("refuses a runtime whose JSON writer lacks the instructions to edit, saying which edit", () => {
    const edit = RUNTIME_EDITS[0]!;
    const sections = readSections(shipped);
    const functions = readFunctions(sections);
    const index = functions.indexByName.get(edit.function)! - functions.importedFunctions;
    const body = Uint8Array.from(functions.bodies[index]!);
    for (let k = 0; k + edit.find.length <= body.length; k++) if (edit.find.every((b, j) => body[k + j] === b)) body[k + edit.find.length - 1] = 0x06; // another offset
    const bodies = [...functions.bodies];
    bodies[index] = body;
    expect(() => patchRuntime(writeModule(withBodies(sections, bodies)), kernels)).toThrow(/json-replace-invalid-utf8: the instructions to edit occur 0 times/);
  });
});

describe("the kernels", () => {
  it("give the generic kernels' results bit for bit on 3,000 random block rows (q4_1, q4_0, q8_0) in Node: kernels.wasm", () => {
    const run = spawnSync(process.execPath, ["--experimental-wasm-memory64", "--import", "tsx", join(import.meta.dirname, "kernels-check.ts")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout.trim()) as { cases: number; mismatches: string[] };
    expect(result.cases).toBe(3000);
    expect(result.mismatches).toEqual([]);
  });

  // Node's relaxed SIMD (behind a flag) is an older draft of the instruction: the relaxed kernels
  // are checked where the page runs them.
  const executablePath = systemChromiumPath();
  it.skipIf(!executablePath)("give the generic kernels' results bit for bit in Chromium: kernels.wasm and kernels-relaxed.wasm", async () => {
    const cases = kernelCases();
    const browser = await chromium.launch({ executablePath: executablePath!, args: baseChromiumArgs });
    try {
      const page = await browser.newPage();
      for (const file of [kernels, relaxedKernels]) {
        const results = await page.evaluate(runCasesInPage, { module: instantiableKernels(file), cases });
        expect(results).toHaveLength(cases.length);
        expect(mismatches(cases, results).slice(0, 5)).toEqual([]);
      }
    } finally {
      await browser.close();
    }
  }, 180_000);

  const clang = ["clang-19", "wasm-ld-19", "llvm-objdump-19"].every((tool) => spawnSync(tool, ["--version"]).status === 0);
  it.skipIf(!clang)("are what build-kernels.sh compiles from kernels.c (clang-19, wasm-ld-19, llvm-objdump-19)", () => {
    const dir = mkdtempSync(join(tmpdir(), "kernels-"));
    try {
      const build = spawnSync("bash", [join(import.meta.dirname, "build-kernels.sh"), dir], { encoding: "utf8" });
      expect(build.status, build.stderr).toBe(0);
      expect(sameBytes(readFileSync(join(dir, "kernels.wasm")), kernels)).toBe(true);
      expect(sameBytes(readFileSync(join(dir, "kernels-relaxed.wasm")), relaxedKernels)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
