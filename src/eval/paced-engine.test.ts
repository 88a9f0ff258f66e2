// The Evaluate view's engines hand replies on in pieces, with a chance for the page to take a
// turn before each: a 1 MB chunk is not parsed in one task.
import { describe, expect, it } from "vitest";
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { PACED_PIECE_CHARS, pacedEngine } from "./paced-engine.ts";

const chunks = (text: string): EngineChunk[] => [{ type: "reasoning", text: "r".repeat(40_000) }, { type: "text", text }, { type: "usage", usage: { finishReason: "stop" } }];

function engineOf(script: EngineChunk[]): Engine {
  const stream = async function* () {
    yield* script;
  };
  return { name: "scripted", contextWindowSize: 4096, generate: () => stream(), native: { request: () => ({ model: "m" }), generate: () => stream() } };
}

async function collect(stream: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe("paced engine", () => {
  it("hands a large text or reasoning chunk on in pieces, the page getting a turn before each, in both modes", async () => {
    const text = `${"😀".repeat(10_000)}${"<tool_call>{".repeat(80_000)}`;
    let pauses = 0;
    const engine = pacedEngine(engineOf(chunks(text)), async () => {
      pauses += 1;
    });
    expect(engine.contextWindowSize).toBe(4096);
    for (const stream of [engine.generate("p", {}, new AbortController().signal), engine.native!.generate({}, new AbortController().signal)]) {
      pauses = 0;
      const out = await collect(stream);
      const texts = out.flatMap((c) => (c.type === "text" ? [c.text] : []));
      expect(texts.join("")).toBe(text);
      expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(PACED_PIECE_CHARS);
      for (const piece of texts) expect(/[\uD800-\uDBFF]$/.test(piece)).toBe(false);
      expect(out.filter((c) => c.type === "reasoning")).toHaveLength(Math.ceil(40_000 / PACED_PIECE_CHARS));
      expect(out.at(-1)).toEqual({ type: "usage", usage: { finishReason: "stop" } });
      expect(pauses).toBe(out.length);
    }
  });
});
