// The decision point of a recorded step, from the loop's own events: the token where a call
// opened (and the whole marker's probability along the sampled path), or the first token of a
// reply without one and whether an alternative there would have opened a call.
import { describe, expect, it } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import { runToolLoop } from "../loop/run-tool-loop.ts";
import type { Engine, EngineChunk, ExecutableTool, LoopEvent, TokenProbability } from "../types.ts";
import { describeDecisionPoint, findDecisionPoint, quoteToken } from "./decision-point.ts";
import { openingMarkers } from "./opening-markers.ts";
import { stepDecisionPoint } from "./step-decision.ts";

const token = (text: string, p: number, ...top: Array<[string, number]>): TokenProbability => ({ text, p, top: top.map(([t, q]) => ({ text: t, p: q })) });
const weather: ExecutableTool = { name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } }, execute: async () => "sunny" };

function engineOf(tokens: TokenProbability[]): Engine {
  return {
    name: "scripted",
    tokenProbabilities: { supported: true },
    generate: async function* () {
      for (const t of tokens) yield { type: "text", text: t.text, tokens: [t] } satisfies EngineChunk;
      yield { type: "usage", usage: { finishReason: "stop" } };
    },
  };
}

async function firstStep(tokens: TokenProbability[], protocol = "hermes", engine: Engine = engineOf(tokens)) {
  const events: LoopEvent[] = [];
  for await (const event of runToolLoop({ engine, protocol: getProtocol(protocol)!, tools: [weather], messages: [{ role: "user", content: "Weather in Paris?" }], runId: "r", maxSteps: 1 })) events.push(event);
  const stepId = events.find((e) => e.type === "step-start")!.type === "step-start" ? (events.find((e) => e.type === "step-start") as Extract<LoopEvent, { type: "step-start" }>).stepId : "";
  return stepDecisionPoint(events, "r", stepId);
}

describe("the decision point", () => {
  it("names the token where a Hermes call opened, its p and the most likely alternative", async () => {
    const point = await firstStep([
      token("<tool_call>", 0.62, ["<tool_call>", 0.62], ["I", 0.21]),
      token('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n', 0.9),
      token("</tool_call>", 0.99),
    ]);
    expect(point.kind).toBe("call");
    expect(describeDecisionPoint(point)).toBe("opened a tool call with p = 0.62; the most likely alternative was `I` (0.21)");
  });

  it("multiplies the probabilities of a marker written in several tokens, along the sampled path", async () => {
    const point = await firstStep([
      token("Sure.\n", 0.5),
      token("<tool", 0.4, ["<tool", 0.4], ["The", 0.3]),
      token("_call>", 0.5),
      token('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', 0.9),
    ]);
    if (point.kind !== "call") throw new Error(point.kind);
    expect(point.token.token.text).toBe("<tool");
    expect(point.markerTokens.map((t) => t.token.text)).toEqual(["<tool", "_call>"]);
    expect(point.markerP).toBeCloseTo(0.2, 10);
    expect(describeDecisionPoint(point)).toBe("opened a tool call with p = 0.40 (the whole marker `<tool_call>`, 2 tokens: p = 0.20); the most likely alternative was `The` (0.30)");
  });

  it("does not name the sampled token as its own alternative when the engine sent it with other text (same id)", () => {
    // llama-server sent `<tool` (the `<` it had held back) for token 19324, whose alternatives
    // carry its own text, `tool` (seen with SmolLM2, e2e/fixtures/eval-results-smollm2-with-logs.json).
    const output = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const tokens = [
      { text: "<tool", p: 0.3, id: 19324, top: [{ text: "tool", p: 0.3, id: 19324 }, { text: "I", p: 0.2, id: 57 }] },
      { text: output.slice(5), p: 0.9, top: [] },
    ];
    const placed = tokens.map((token, index) => ({ token, index, start: index === 0 ? 0 : 5, end: index === 0 ? 5 : output.length }));
    const point = findDecisionPoint({ output, tokens: placed, callStarts: [0], markers: ["<tool_call>"] });
    if (point.kind !== "call") throw new Error(point.kind);
    expect(point.alternative).toEqual({ text: "I", p: 0.2, id: 57 });
  });

  it("in a reply without a call, names the first token and the alternative that would have opened one", async () => {
    const point = await firstStep([token("I", 0.81, ["I", 0.81], ["The", 0.1], ["<tool_call>", 0.04]), token(" cannot.", 0.7)]);
    expect(describeDecisionPoint(point)).toBe("answered without a call, starting with `I` (p = 0.81); a call would have opened with `<tool_call>` at p = 0.04");
  });

  it("says when no recorded alternative opens a call, and what bounds its probability", async () => {
    const point = await firstStep([token("I", 0.9, ["I", 0.9], ["The", 0.05])]);
    expect(describeDecisionPoint(point)).toBe("answered without a call, starting with `I` (p = 0.90); no call opener (`<tool_call>`) was among the 2 alternatives recorded (so p ≤ 0.05); not measured exactly: this engine (scripted) cannot: only a llama.cpp engine (llama-server, the CPU engine) records a token's probability before a grammar that forces the text");
  });

  it("estimates nothing where the engine recorded no probabilities, and says why", async () => {
    const silent: Engine = { name: "silent", generate: async function* () { yield { type: "text", text: "hi" }; } };
    const point = await firstStep([], "hermes", silent);
    expect(point.kind).toBe("unknown");
    expect(describeDecisionPoint(point)).toContain("does not report token probabilities");
    expect(findDecisionPoint({ output: "x", tokens: [], callStarts: [], markers: [] })).toEqual({ kind: "unknown", reason: "This step recorded no token probabilities." });
  });

  it("finds a Llama 3 JSON call opened by its first token in a marker of several (`{\"name\": \"`)", async () => {
    expect(openingMarkers(getProtocol("llama3-json")!)).toContain('{"name": "');
    const point = await firstStep([token("{\"", 0.3, ["{\"", 0.3], ["The", 0.6]), token('name": "get_weather", "parameters": {"city": "Paris"}}', 0.95)], "llama3-json");
    if (point.kind !== "call") throw new Error(point.kind);
    expect(point.marker).toBe('{"name": "');
    expect(point.markerP).toBeCloseTo(0.3 * 0.95, 10);
    expect(point.alternative).toEqual({ text: "The", p: 0.6 });
  });

  it("quotes a token that holds a backtick in curly quotes, so a fence does not merge with the quote's own backticks", async () => {
    expect(quoteToken("```")).toBe("\u201c```\u201d");
    expect(quoteToken("\n```json")).toBe("\u201c\\n```json\u201d");
    expect(quoteToken("<tool_call>\n")).toBe("`<tool_call>\\n`");
    const point = await firstStep([token("```", 0.7, ["```", 0.7], ["<tool_call>", 0.2]), token("json", 0.9)]);
    expect(describeDecisionPoint(point)).toBe("answered without a call, starting with \u201c```\u201d (p = 0.70); a call would have opened with `<tool_call>` at p = 0.20");
  });

  it("reads the opener probe the loop recorded in a step without a call: the marker's measured p, its tokens multiplied", async () => {
    const prompts: Array<[string, string]> = [];
    const probing: Engine = {
      ...engineOf([token("I", 0.9, ["I", 0.9], ["The", 0.05])]),
      probeText: async (prompt, text) => {
        prompts.push([prompt, text]);
        return { text, p: 0.25 * 0.0124, tokens: [{ text: "<", p: 0.25, id: 27 }, { text: "tool_call>", p: 0.0124, id: 99 }] };
      },
    };
    const events: LoopEvent[] = [];
    for await (const event of runToolLoop({ engine: probing, protocol: getProtocol("hermes")!, tools: [weather], messages: [{ role: "user", content: "Weather in Paris?" }], runId: "r", maxSteps: 1 })) events.push(event);
    const start = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
    const end = events.find((e): e is Extract<LoopEvent, { type: "step-end" }> => e.type === "step-end")!;
    // Probed once per opening marker, on the step's own prompt (the decision point is its first token).
    expect(prompts).toEqual([[start.prompt, "<tool_call>"]]);
    expect(end.openerProbe).toEqual({ at: 0, markers: [{ marker: "<tool_call>", p: 0.0031, tokens: [{ text: "<", p: 0.25, id: 27 }, { text: "tool_call>", p: 0.0124, id: 99 }] }] });
    const point = stepDecisionPoint(events, "r", start.stepId);
    expect(describeDecisionPoint(point)).toBe("answered without a call, starting with `I` (p = 0.90); a call would have opened with `<tool_call>` at p = 0.0031 (measured: the product of its 2 tokens' probabilities)");
  });

  it("does not probe when the step records no probabilities, or the run says not to", async () => {
    let probes = 0;
    const probing: Engine = { ...engineOf([token("I", 0.9)]), probeText: async (_prompt, text) => (probes++, { text, p: 0.5, tokens: [{ text, p: 0.5 }] }) };
    for await (const event of runToolLoop({ engine: probing, protocol: getProtocol("hermes")!, tools: [weather], messages: [{ role: "user", content: "x" }], runId: "r", maxSteps: 1, topProbabilities: 0 })) void event;
    for await (const event of runToolLoop({ engine: probing, protocol: getProtocol("hermes")!, tools: [weather], messages: [{ role: "user", content: "x" }], runId: "r", maxSteps: 1, probeOpeners: false })) void event;
    expect(probes).toBe(0);
  });
});
