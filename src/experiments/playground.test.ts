import { describe, expect, it } from "vitest";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { chunksOf, seededRandom } from "./chunking.ts";
import { firstDifference, runPlayground } from "./playground-parse.ts";
import { reparse } from "./reparse.ts";
import { decodePlaygroundLink, encodePlaygroundLink, HASH_PREFIX, type PlaygroundState } from "./share-link.ts";
import { readPastedTools } from "./tool-source.ts";

const weather: ToolSpec = { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } };
const hermesCall = 'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>';

describe("chunking", () => {
  it("gives the text back whatever the cut, and a seed cuts the same way twice", () => {
    const text = "héllo 🌍 <tool_call> world";
    for (const chunking of [{ kind: "whole" }, { kind: "char" }, { kind: "random", seed: 7 }] as const) expect([...chunksOf(text, chunking)].join("")).toBe(text);
    expect([...chunksOf(text, { kind: "char" })]).toHaveLength(text.length);
    expect([...chunksOf(text, { kind: "random", seed: 7 })]).toEqual([...chunksOf(text, { kind: "random", seed: 7 })]);
    expect([...chunksOf(text, { kind: "random", seed: 7 })]).not.toEqual([...chunksOf(text, { kind: "random", seed: 8 })]);
  });
});

describe("runPlayground", () => {
  it("finds the call and agrees with one pass under every chunking", () => {
    for (const chunking of [{ kind: "whole" }, { kind: "char" }, { kind: "random", seed: 3 }] as const) {
      const result = runPlayground({ output: hermesCall, protocol: "hermes", tools: [weather], chunking });
      expect(result.result.calls).toEqual([expect.objectContaining({ name: "get_weather", arguments: { location: "Paris" } })]);
      expect(result.agrees).toBe(true);
      expect(result.events.some((e) => e.type === "tool-call-end")).toBe(true);
    }
  });

  it("runs every registered protocol without failing", () => {
    for (const protocol of listProtocols()) {
      const result = runPlayground({ output: hermesCall, protocol: protocol.name, tools: [weather], chunking: { kind: "char" } });
      expect(result.error).toBeUndefined();
      expect(result.agrees).toBe(true);
    }
  });

  it("reads strictly as the debugger's re-parse does: a repaired call is refused, with the reason, under every chunking", () => {
    const broken = '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris",}}\n</tool_call>';
    const lenient = runPlayground({ output: broken, protocol: "hermes", tools: [weather], chunking: { kind: "whole" } });
    expect(lenient.result.calls).toHaveLength(1);
    for (const chunking of [{ kind: "whole" }, { kind: "char" }, { kind: "random", seed: 3 }] as const) {
      const strict = runPlayground({ output: broken, protocol: "hermes", tools: [weather], chunking, strict: true });
      expect(strict.result.calls).toHaveLength(0);
      expect(strict.result.errors).toEqual([expect.objectContaining({ kind: "strict", message: expect.stringMatching(/needed a repair \(removed a trailing comma/) })]);
      expect(strict.agrees).toBe(true);
      expect(strict.result).toEqual(reparse({ rawOutput: broken, tools: [weather], protocol: "hermes", strict: true }).result);
    }
    // A call in the protocol's own form passes strict reading.
    expect(runPlayground({ output: hermesCall, protocol: "hermes", tools: [weather], chunking: { kind: "char" }, strict: true }).result.calls).toHaveLength(1);
  });

  it("says when the protocol is not registered", () => {
    expect(runPlayground({ output: "x", protocol: "nope", tools: [], chunking: { kind: "whole" } }).error).toMatch(/No protocol is registered as "nope"/);
  });

  it("names the first difference between two results", () => {
    const a = { text: "", reasoning: "", calls: [{ id: "1", name: "a", arguments: { x: 1 } }], errors: [], repairs: [] };
    expect(firstDifference(a, a)).toBeUndefined();
    expect(firstDifference(a, { ...a, calls: [] })).toBe("0 call(s) instead of 1");
    expect(firstDifference(a, { ...a, calls: [{ id: "1", name: "a", arguments: { x: 2 } }] })).toBe("call 1 (a) has other arguments");
  });
});

describe("readPastedTools", () => {
  it("reads OpenAI and plain JSON Schema definitions and reports mistakes", () => {
    const openai = JSON.stringify({ tools: [{ type: "function", function: { name: "get_weather", description: "d", parameters: weather.parameters } }] });
    expect(readPastedTools(openai)).toEqual({ tools: [{ name: "get_weather", description: "d", parameters: weather.parameters }] });
    expect(readPastedTools(JSON.stringify(weather))).toEqual({ tools: [weather] });
    expect(readPastedTools("{not json")).toEqual({ error: expect.stringMatching(/not JSON/) });
    expect(readPastedTools("[1]")).toEqual({ error: expect.stringMatching(/could not be read/) });
  });

  it("refuses tool definitions nested past the bound where they enter, with a message", () => {
    const deep = (levels: number) => `{"name": "deep", "parameters": {"type": "object", "properties": {"a": ${'{"type": "object", "properties": {"b": '.repeat(levels)}{"type": "string"}${"}}".repeat(levels)}}}}`;
    expect(readPastedTools(deep(100_000))).toEqual({ error: "The tool definitions could not be read: the tool definitions are nested more than 64 levels deep" });
    expect(readPastedTools(deep(20))).toMatchObject({ tools: [{ name: "deep" }] });
  });
});

describe("share link", () => {
  const state: PlaygroundState = { output: hermesCall, protocol: "hermes", toolSource: "pasted", pastedTools: JSON.stringify([weather]), chunking: { kind: "random", seed: 5 } };

  it("round-trips the state through a compressed base64url hash", async () => {
    const encoded = await encodePlaygroundLink(state);
    if (!("hash" in encoded)) throw new Error(encoded.error);
    expect(encoded.hash.startsWith(HASH_PREFIX)).toBe(true);
    expect(encoded.hash).toMatch(/^#pg=[A-Za-z0-9_-]+$/);
    expect(await decodePlaygroundLink(encoded.hash)).toEqual({ state });
    // The strict switch travels with the link.
    const strictly = await encodePlaygroundLink({ ...state, strict: true });
    if (!("hash" in strictly)) throw new Error(strictly.error);
    expect(await decodePlaygroundLink(strictly.hash)).toEqual({ state: { ...state, strict: true } });
  });

  it("refuses a state past the bound with the counts, and reports a damaged link", async () => {
    // Random text does not compress: the link grows with it.
    const next = seededRandom(11);
    const random = Array.from({ length: 60_000 }, () => String.fromCharCode(33 + Math.floor(next() * 94))).join("");
    const encoded = await encodePlaygroundLink({ ...state, output: random });
    expect(encoded).toEqual({ error: expect.stringMatching(/needs a link of [\d,]+ characters, over the limit of 32,000/) });
    expect(await decodePlaygroundLink("#pg=AAAA")).toEqual({ error: expect.stringMatching(/could not be read/) });
    expect(await decodePlaygroundLink("#other")).toBeUndefined();
  });

  it("stops inflating a short link that would inflate past the bound (a link bomb), and makes no such link", async () => {
    // 20 million repeated characters deflate about a thousand times: a link within its length limit.
    const json = new TextEncoder().encode(JSON.stringify({ ...state, output: "x".repeat(20_000_000) }));
    const deflated = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    let binary = "";
    for (let at = 0; at < deflated.length; at += 0x8000) binary += String.fromCharCode(...deflated.subarray(at, at + 0x8000));
    const bomb = HASH_PREFIX + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(bomb.length).toBeLessThan(32_000);
    expect(await decodePlaygroundLink(bomb)).toEqual({ error: "The link's state inflates to more than 1,048,576 bytes, the most a playground link may hold; it was not opened." });
    // Just within the bound it opens.
    const within = { ...state, output: "x".repeat(1_000_000) };
    const encoded = await encodePlaygroundLink(within);
    if (!("hash" in encoded)) throw new Error(encoded.error);
    expect(await decodePlaygroundLink(encoded.hash)).toEqual({ state: within });
    expect(await encodePlaygroundLink({ ...state, output: "x".repeat(2_000_000) })).toEqual({ error: expect.stringMatching(/^This state is [\d,]+ bytes, over the 1,048,576 a link may hold/) });
  });
});
