// `npm run --silent bench:kernel-parts`: where the time of the page's q4_1 kernel goes, in
// Chromium, nanoseconds per 32-weight block (the best of 15 rounds): the whole kernel, its integer
// part alone and its float part alone (bench/kernel-parts/kernel-parts.c, built here with
// clang-19 for wasm64 + relaxed SIMD, as the page's kernels are). Rows of 576 weights (SmolLM2's
// hidden size: 18 blocks, the last two after the groups of four) and of 512 (16 blocks, none left
// over), 1,536 rows. Figures only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath } from "../e2e/browser.ts";

const dir = mkdtempSync(join(tmpdir(), "kernel-parts-"));
try {
  const source = join(import.meta.dirname, "kernel-parts", "kernel-parts.c");
  execFileSync("clang-19", ["--target=wasm64-unknown-unknown", "-O3", "-msimd128", "-mrelaxed-simd", "-nostdlib", "-fno-builtin", "-ffp-contract=off", "-c", source, "-o", join(dir, "parts.o")]);
  execFileSync("wasm-ld-19", ["-mwasm64", "--no-entry", "--export-memory", "-o", join(dir, "parts.wasm"), join(dir, "parts.o")]);
  const wasm = readFileSync(join(dir, "parts.wasm")).toString("base64");
  const browser = await chromium.launch({ executablePath: systemChromiumPath(), args: baseChromiumArgs });
  try {
    const page = await browser.newPage();
    console.log("== The page's q4_1 kernel taken apart (ns per 32-weight block, best of 15 rounds) ==");
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
    for (const weights of [576, 512]) {
      const figures = await page.evaluate(
        async ([base64, weights]) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const { instance } = await WebAssembly.instantiate(bytes, {});
          const wasmExports = instance.exports as unknown as { memory: WebAssembly.Memory; heap(): bigint; rows(part: number, count: number, n: number, x: bigint, y: bigint, out: bigint, repeats: number): void };
          const memory = new Uint8Array(wasmExports.memory.buffer);
          const view = new DataView(wasmExports.memory.buffer);
          const count = 1536;
          const blocks = weights / 32;
          const xAt = Number(wasmExports.heap());
          const yAt = xAt + count * blocks * 20 + 64;
          const outAt = yAt + blocks * 36 + 64;
          // A seeded generator, written inline: this function's text runs in the page as it is.
          const state = { seed: 12345 };
          const randomBytes = new Uint8Array(count * blocks * 36 + blocks * 36);
          for (let i = 0; i < randomBytes.length; i++) randomBytes[i] = ((state.seed = (Math.imul(state.seed, 1103515245) + 12345) >>> 0) >>> 8) & 0xff;
          let next = 0;
          // Ordinary half-precision scales (normal numbers), random nibbles and 7-bit activations.
          for (let i = 0; i < count * blocks; i++) {
            const at = xAt + i * 20;
            view.setUint16(at, 0x2c00 | randomBytes[next++]!, true);
            view.setUint16(at + 2, 0xac00 | randomBytes[next++]!, true);
            for (let k = 4; k < 20; k++) memory[at + k] = randomBytes[next++]!;
          }
          for (let i = 0; i < blocks; i++) {
            const at = yAt + i * 36;
            view.setUint16(at, 0x2c00 | randomBytes[next++]!, true);
            view.setUint16(at + 2, 0x3c00 | randomBytes[next++]!, true);
            for (let k = 4; k < 36; k++) memory[at + k] = randomBytes[next++]! & 0x7f;
          }
          const best = [Infinity, Infinity, Infinity];
          const repeats = 60;
          for (let round = 0; round < 15; round++)
            for (let part = 0; part < 3; part++) {
              const started = performance.now();
              wasmExports.rows(part, count, weights, BigInt(xAt), BigInt(yAt), BigInt(outAt), repeats);
              best[part] = Math.min(best[part]!, ((performance.now() - started) * 1e6) / (repeats * count * blocks));
            }
          return best;
        },
        [wasm, weights] as const,
      );
      const [whole, integer, float] = figures.map((x) => x.toFixed(2));
      console.log(`  rows of ${weights} weights: whole kernel ${whole} ns/block · integer part alone ${integer} · float part alone ${float}`);
    }
  } finally {
    await browser.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
