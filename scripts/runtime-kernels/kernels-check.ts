// Runs the kernels on random blocks and compares each result, bit for bit, with the generic
// kernels' arithmetic written out here (llama.cpp's ggml_vec_dot_q4_1_q8_1_generic,
// ggml_vec_dot_q4_0_q8_0_generic and ggml_vec_dot_q8_0_q8_0_generic: an integer dot per block,
// then float operations in order).
//
// The cases are made here, in Node, and run wherever the kernels can run: kernels.wasm in a Node
// with 64-bit memory (`node --experimental-wasm-memory64 --import tsx kernels-check.ts` prints a
// JSON line: cases run and the mismatches), kernels-relaxed.wasm in Chromium (this Node's relaxed
// SIMD is an older draft of the instruction), by runtime-kernels.test.ts through
// `runCasesInPage`, whose body runs in the page and so uses nothing from outside it.
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

export type KernelName = "q4_1_q8_1_dot" | "q4_0_q8_0_dot" | "q8_0_q8_0_dot";

/** One row: the weight blocks, the activation blocks, and the generic kernel's result. */
export interface KernelCase {
  kernel: KernelName;
  values: number;
  /** The blocks' bytes, base64 (cheap to send into a page). */
  x: string;
  y: string;
  expected: number;
}

const BLOCK_BYTES: Record<KernelName, { x: number; y: number }> = {
  q4_1_q8_1_dot: { x: 20, y: 36 },
  q4_0_q8_0_dot: { x: 18, y: 34 },
  q8_0_q8_0_dot: { x: 34, y: 34 },
};

/** `count` rows of 1–48 blocks, the three kernels in turn; seeded, so that a failure repeats. */
export function kernelCases(count = 3000): KernelCase[] {
  const next = seededRandom(20261129);
  const int = (below: number) => Math.floor(next() * below);
  // Mostly ordinary scales, sometimes any half at all (subnormals, infinities, NaNs).
  const half = () => (next() < 0.2 ? int(0x10000) : (int(2) << 15) | ((10 + int(8)) << 10) | int(1024));
  const kernels: KernelName[] = ["q4_1_q8_1_dot", "q4_0_q8_0_dot", "q8_0_q8_0_dot"];
  return Array.from({ length: count }, (_, round) => {
    const kernel = kernels[round % kernels.length]!;
    const size = BLOCK_BYTES[kernel];
    const blocks = 1 + int(48);
    const x = new DataView(new ArrayBuffer(blocks * size.x));
    const y = new DataView(new ArrayBuffer(blocks * size.y));
    let expected = 0;
    for (let b = 0; b < blocks; b++) {
      const xAt = b * size.x, yAt = b * size.y;
      const xd = half(), xm = half(), yd = half(), ys = half();
      x.setUint16(xAt, xd, true);
      y.setUint16(yAt, yd, true);
      if (kernel === "q4_1_q8_1_dot") {
        x.setUint16(xAt + 2, xm, true);
        y.setUint16(yAt + 2, ys, true);
      }
      const yq = yAt + (kernel === "q4_1_q8_1_dot" ? 4 : 2), xq = xAt + (kernel === "q4_1_q8_1_dot" ? 4 : 2);
      for (let j = 0; j < 32; j++) y.setInt8(yq + j, int(256) - 128);
      let sumi = 0;
      if (kernel === "q8_0_q8_0_dot") {
        for (let j = 0; j < 32; j++) {
          x.setInt8(xq + j, int(256) - 128);
          sumi += x.getInt8(xq + j) * y.getInt8(yq + j);
        }
      } else {
        const offset = kernel === "q4_1_q8_1_dot" ? 0 : 8;
        for (let j = 0; j < 16; j++) {
          const byte = int(256);
          x.setUint8(xq + j, byte);
          sumi += ((byte & 0x0f) - offset) * y.getInt8(yq + j) + ((byte >> 4) - offset) * y.getInt8(yq + j + 16);
        }
      }
      if (kernel === "q4_1_q8_1_dot") expected = f32(expected + f32(f32(f32(halfValue(xd) * halfValue(yd)) * sumi) + f32(halfValue(xm) * halfValue(ys))));
      else if (kernel === "q4_0_q8_0_dot") expected = f32(expected + f32(f32(sumi * halfValue(xd)) * halfValue(yd)));
      else expected = f32(expected + f32(sumi * f32(halfValue(xd) * halfValue(yd))));
    }
    return { kernel, values: blocks * 32, x: Buffer.from(x.buffer).toString("base64"), y: Buffer.from(y.buffer).toString("base64"), expected };
  });
}

/** The kernels' module without its table and stack-pointer global (Node's 64-bit-memory support refuses a 64-bit table; the kernels use neither) and without custom sections. */
export function instantiableKernels(bytes: Uint8Array): string {
  return Buffer.from(writeModule(readSections(bytes).filter((s) => s.id !== 4 && s.id !== 6 && s.id !== 0))).toString("base64");
}

/**
 * Runs each case through the kernels and returns their results. Written to run in a page as well
 * (Playwright sends its source): it uses only its arguments and the platform.
 */
export function runCasesInPage({ module, cases }: { module: string; cases: Array<Omit<KernelCase, "expected">> }): number[] {
  const decode = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const wasm = new WebAssembly.Module(decode(module));
  // A 64-bit memory: `address: "i64"` with a BigInt size in the finished JS API (Chromium), `index:
  // "i64"` in the draft Node 20 has behind its flag (where the other form throws).
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: 4n, address: "i64" } as unknown as WebAssembly.MemoryDescriptor);
  } catch {
    memory = new WebAssembly.Memory({ initial: 4, index: "i64" } as unknown as WebAssembly.MemoryDescriptor);
  }
  const instance = new WebAssembly.Instance(wasm, { env: { memory } });
  const kernels = instance.exports as Record<string, (...args: Array<number | bigint>) => void>;
  const bytes = new Uint8Array(memory.buffer);
  const X = 0, Y = 100_000, OUT = 200_000;
  return cases.map(({ kernel, values, x, y }) => {
    bytes.set(decode(x), X);
    bytes.set(decode(y), Y);
    kernels[kernel]!(values, BigInt(OUT), 0n, BigInt(X), 0n, BigInt(Y), 0n, 1);
    return new DataView(memory.buffer).getFloat32(OUT, true);
  });
}

/** The cases whose result is not the generic kernel's, bit for bit (any NaN matches a NaN). */
export function mismatches(cases: KernelCase[], results: number[]): string[] {
  return cases.flatMap((c, k) => {
    const actual = results[k]!;
    const same = Number.isNaN(c.expected) ? Number.isNaN(actual) : Object.is(actual, f32(c.expected));
    return same ? [] : [`${c.kernel} ${c.values / 32} blocks: ${actual} instead of ${c.expected}`];
  });
}

function main() {
  const cases = kernelCases();
  const module = instantiableKernels(readFileSync(new URL("./kernels.wasm", import.meta.url)));
  console.log(JSON.stringify({ cases: cases.length, mismatches: mismatches(cases, runCasesInPage({ module, cases })).slice(0, 5) }));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
