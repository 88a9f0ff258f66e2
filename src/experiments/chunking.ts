// How the playground cuts a raw output into stream chunks: whole (one pass), one character at a
// time, or random sizes from a seed (the same seed cuts the same way, so a link reproduces it).
// A streaming parser must give the same result for every cut; the playground shows whether it does.

export type Chunking = { kind: "whole" } | { kind: "char" } | { kind: "random"; seed: number };

/** Random chunk sizes are 1..MAX_RANDOM_CHUNK characters. */
export const MAX_RANDOM_CHUNK = 16;

/** A small seeded generator (mulberry32): reproducible, not for anything secret. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The chunks of `text` under `chunking`; joined they give `text` back. */
export function* chunksOf(text: string, chunking: Chunking): Generator<string> {
  if (text === "") return;
  if (chunking.kind === "whole") {
    yield text;
    return;
  }
  if (chunking.kind === "char") {
    // By UTF-16 unit, as a stream may cut anywhere (even inside a surrogate pair).
    for (let at = 0; at < text.length; at += 1) yield text[at]!;
    return;
  }
  const next = seededRandom(chunking.seed);
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(next() * MAX_RANDOM_CHUNK);
    yield text.slice(at, at + size);
    at += size;
  }
}

export function describeChunking(chunking: Chunking): string {
  if (chunking.kind === "whole") return "one pass (whole output)";
  if (chunking.kind === "char") return "one character a chunk";
  return `random chunks of 1–${MAX_RANDOM_CHUNK} characters, seed ${chunking.seed}`;
}
