// Memory while the lab's GGUF reader (src/gguf/gguf-metadata.ts, the tokenizer worker's and a
// failed load's) reads a file whose metadata arrays run to hundreds of MB. The file is made on
// the fly (never held whole), so what is measured is the reader's own memory: the peak heap and
// resident size sampled as it reads, and what it holds after. Printed, never asserted.
//   npx tsx --expose-gc bench/gguf-metadata-memory.ts   (or node --expose-gc --import tsx …)
import { DEFAULT_GGUF_LIMITS, GgufFormatError, readGgufMetadata } from "../src/gguf/gguf-metadata.ts";

type Segment = { bytes: Uint8Array } | { strings: number; length: number };

const le64 = (n: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
  return b;
};
const le32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const text = (s: string) => new TextEncoder().encode(s);
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

/** A GGUF of `arrays` string arrays (key, count, bytes per string), the strings made on request. */
function virtualGguf(arrays: { key: string; strings: number; length: number }[]): { size: number; read: (offset: number, length: number) => Promise<Uint8Array> } {
  const segments: Segment[] = [{ bytes: join(text("GGUF"), le32(3), le64(0), le64(arrays.length)) }];
  for (const a of arrays) {
    segments.push({ bytes: join(le64(a.key.length), text(a.key), le32(9), le32(8), le64(a.strings)) });
    segments.push({ strings: a.strings, length: a.length });
  }
  const sizes = segments.map((s) => ("bytes" in s ? s.bytes.length : s.strings * (8 + s.length)));
  const size = sizes.reduce((a, b) => a + b, 0);
  const read = async (offset: number, length: number) => {
    const out = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
    let start = 0;
    for (const [i, segment] of segments.entries()) {
      const end = start + sizes[i]!;
      for (let p = Math.max(offset, start); p < Math.min(offset + out.length, end); p++) {
        const q = p - start;
        if ("bytes" in segment) out[p - offset] = segment.bytes[q]!;
        else {
          const record = 8 + segment.length;
          const k = q % record;
          out[p - offset] = k < 8 ? (k === 0 ? segment.length & 0xff : k === 1 ? segment.length >> 8 : 0) : 97 + ((Math.floor(q / record) + k) % 26);
        }
      }
      start = end;
    }
    return out;
  };
  return { size, read };
}

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function measure(label: string, arrays: { key: string; strings: number; length: number }[]): Promise<void> {
  const file = virtualGguf(arrays);
  gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  // Sampled at each read the reader asks for (a megabyte each): it never gives the event loop a
  // turn when its bytes come at once, so a timer would not run.
  let reads = 0;
  const sample = () => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  };
  const read = (offset: number, length: number) => {
    if (reads++ % 8 === 0) sample();
    return file.read(offset, length);
  };
  const started = performance.now();
  let outcome: string;
  let held: unknown = null;
  try {
    held = await readGgufMetadata(read);
    outcome = "read";
  } catch (error) {
    outcome = error instanceof GgufFormatError ? `refused: ${error.message}` : `failed: ${String(error)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  sample();
  gc?.();
  const after = process.memoryUsage();
  console.log(
    `  ${label} (${mb(file.size)} of metadata): ${outcome} in ${seconds.toFixed(1)} s; heap peak +${mb(peakHeap - before.heapUsed)}, resident peak +${mb(peakRss - before.rss)}; held after: heap +${mb(after.heapUsed - before.heapUsed)}${held === null ? "" : " (the metadata read, still referenced)"}`,
  );
}

const { maxArrayLength, maxMetadataBytes } = DEFAULT_GGUF_LIMITS;
console.log(`GGUF metadata arrays of hundreds of MB, read by readGgufMetadata (bounds: ${maxArrayLength.toLocaleString("en-US")} elements an array, ${mb(maxMetadataBytes)} of metadata)${gc ? "" : " — run with --expose-gc for figures after a collection"}`);
const n = maxArrayLength;
await measure(`an array of ${(n + 1).toLocaleString("en-US")} strings (one past the bound)`, [{ key: "tokenizer.ggml.tokens", strings: n + 1, length: 8 }]);
await measure(`two arrays of ${n.toLocaleString("en-US")} strings of 8 and 28 bytes (within the bounds)`, [
  { key: "tokenizer.ggml.tokens", strings: n, length: 8 },
  { key: "tokenizer.ggml.merges", strings: n, length: 28 },
]);
await measure(`two arrays of ${n.toLocaleString("en-US")} strings of 8 and 56 bytes (past the metadata bound)`, [
  { key: "tokenizer.ggml.tokens", strings: n, length: 8 },
  { key: "tokenizer.ggml.merges", strings: n, length: 56 },
]);
