// Runs kernels.wasm's functions on random blocks and compares each result, bit for bit, with the
// generic kernels' arithmetic written out here (llama.cpp's ggml_vec_dot_q4_1_q8_1_generic and
// ggml_vec_dot_q4_0_q8_0_generic: integer dot per block, then float operations in order). Prints
// a JSON line: cases run and the mismatches. Run by kernels.test.ts in a Node with 64-bit memory
// (`node --experimental-wasm-memory64 --import tsx`), since the kernels are wasm64 like the runtime.
import { readFileSync } from "node:fs";
import { seededRandom } from "../../src/experiments/chunking.ts";
import { readSections, writeModule } from "./wasm-module.ts";

const f32 = Math.fround;

/** IEEE half to float, from its definition (not from the kernels' bit trick). */
export function halfValue(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function main() {
  // The module without its table and stack-pointer global (Node's 64-bit-memory support refuses a
  // 64-bit table; the kernels use neither) and without custom sections.
  const sections = readSections(readFileSync(new URL("./kernels.wasm", import.meta.url))).filter((s) => s.id !== 4 && s.id !== 6 && s.id !== 0);
  const memory = new WebAssembly.Memory({ initial: 4, index: "i64" } as unknown as WebAssembly.MemoryDescriptor);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(writeModule(sections)), { env: { memory } });
  const kernels = instance.exports as Record<string, (...args: Array<number | bigint>) => void>;
  const view = new DataView(memory.buffer);
  // Seeded, so that a failure repeats.
  const next = seededRandom(20261129);
  const int = (below: number) => Math.floor(next() * below);
  // Mostly ordinary scales, sometimes any half at all (subnormals, infinities, NaNs).
  const half = () => (next() < 0.2 ? int(0x10000) : (int(2) << 15) | ((10 + int(8)) << 10) | int(1024));
  let cases = 0;
  const mismatches: string[] = [];
  const X = 0, Y = 100_000, OUT = 200_000;
  for (let round = 0; round < 3000; round++) {
    const blocks = 1 + int(48);
    const q4_1 = round % 2 === 0;
    const xSize = q4_1 ? 20 : 18;
    const ySize = q4_1 ? 36 : 34;
    let expected = 0;
    for (let b = 0; b < blocks; b++) {
      const xd = half(), xm = half(), yd = half(), ys = half();
      const xAt = X + b * xSize, yAt = Y + b * ySize;
      view.setUint16(xAt, xd, true);
      if (q4_1) view.setUint16(xAt + 2, xm, true);
      view.setUint16(yAt, yd, true);
      if (q4_1) view.setUint16(yAt + 2, ys, true);
      const qs = xAt + (q4_1 ? 4 : 2), ys8 = yAt + (q4_1 ? 4 : 2);
      let sumi = 0;
      for (let j = 0; j < 32; j++) view.setInt8(ys8 + j, int(256) - 128);
      for (let j = 0; j < 16; j++) {
        const byte = int(256);
        view.setUint8(qs + j, byte);
        const offset = q4_1 ? 0 : 8;
        sumi += ((byte & 0x0f) - offset) * view.getInt8(ys8 + j) + ((byte >> 4) - offset) * view.getInt8(ys8 + j + 16);
      }
      expected = q4_1
        ? f32(expected + f32(f32(f32(halfValue(xd) * halfValue(yd)) * sumi) + f32(halfValue(xm) * halfValue(ys))))
        : f32(expected + f32(f32(sumi * halfValue(xd)) * halfValue(yd)));
    }
    kernels[q4_1 ? "q4_1_q8_1_dot" : "q4_0_q8_0_dot"]!(blocks * 32, BigInt(OUT), 0n, BigInt(X), 0n, BigInt(Y), 0n, 1);
    const actual = view.getFloat32(OUT, true);
    cases++;
    const same = Number.isNaN(expected) ? Number.isNaN(actual) : Object.is(actual, f32(expected));
    if (!same && mismatches.length < 5) mismatches.push(`${q4_1 ? "q4_1" : "q4_0"} ${blocks} blocks: ${actual} instead of ${expected}`);
    else if (!same) mismatches.push("…");
  }
  console.log(JSON.stringify({ cases, mismatches }));
}

main();
