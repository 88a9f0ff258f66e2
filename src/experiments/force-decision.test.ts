// Forcing the decision, the pure parts: what a branch's outcome says, which tokens "Force no
// call" bans, and the engine that bans them for one token and then generates freely.
import { describe, expect, it } from "vitest";
import type { Engine, EngineChunk, GenerationRequest, GenerationSettings, ParseEvent } from "toolcall-middleware/types.ts";
import { bannedFirstTokenEngine } from "./branch-run.ts";
import { branchOutcome, describeOutcome, outcomeTag } from "./branch-outcome.ts";
import { openerTokensToBan } from "./force-decision.ts";

const span = { start: 0, end: 1 };

describe("what came of a branch", () => {
  it("a valid call, a call that failed validation, no call", () => {
    const call: ParseEvent[] = [{ type: "tool-call-start", id: "c", name: "calc", span }, { type: "tool-call-end", id: "c", call: { id: "c", name: "calc", arguments: { x: 1 } }, span }] as ParseEvent[];
    expect(describeOutcome(branchOutcome(call, "tool-calls"))).toBe('a valid call: calc({"x":1})');
    expect(outcomeTag(branchOutcome(call, "tool-calls"))).toBe("call calc");
    const failed = [{ type: "tool-call-start", id: "c", name: "calc", span }, { type: "parse-error", kind: "invalid-arguments", message: "x must be a number", raw: "", span }] as unknown as ParseEvent[];
    expect(describeOutcome(branchOutcome(failed, "parse-error"))).toBe("a call that failed validation (invalid-arguments: x must be a number)");
    expect(branchOutcome([{ type: "tool-call-start", id: "c", name: "calc", span }] as ParseEvent[], "cut-off")).toEqual({ kind: "invalid", why: "the call was cut off before it closed" });
    expect(describeOutcome(branchOutcome([{ type: "text", text: "hi", span }] as ParseEvent[], "final"))).toBe("no call");
    expect(branchOutcome([], "aborted")).toEqual({ kind: "unfinished", status: "aborted" });
  });
});

describe("force no call", () => {
  it("bans the opener token and every recorded alternative there that begins a marker, by id", () => {
    const token = { text: "<tool", p: 0.6, id: 10, top: [{ text: "<tool", p: 0.6, id: 10 }, { text: " <", p: 0.1, id: 11 }, { text: "I", p: 0.2, id: 12 }] };
    const point = { kind: "call" as const, token: { start: 0, end: 5, index: 0, token }, marker: "<tool_call>", markerTokens: [], markerP: 0.5 };
    expect(openerTokensToBan(point, ["<tool_call>"])).toEqual([{ id: 10, text: "<tool" }, { id: 11, text: " <" }]);
  });

  it("bans for one token only, without stop strings, then continues from the prompt plus that token with the step's settings", async () => {
    const calls: Array<{ prompt: string; settings: GenerationSettings; request: GenerationRequest | undefined }> = [];
    const engine: Engine = {
      name: "llama.cpp",
      bansTokens: true,
      async *generate(prompt, settings, _signal, request): AsyncIterable<EngineChunk> {
        calls.push({ prompt, settings, request });
        yield { type: "text", text: calls.length === 1 ? "I" : " am" };
        yield { type: "usage", usage: { finishReason: "length" } };
      },
    };
    const chunks: EngineChunk[] = [];
    for await (const chunk of bannedFirstTokenEngine(engine, [10]).generate("P", { maxTokens: 5, stop: ["<|im_end|>"] }, new AbortController().signal, { topProbabilities: 5 })) chunks.push(chunk);
    expect(calls.map((c) => [c.prompt, c.settings.maxTokens, c.settings.stop, c.request?.bannedTokenIds])).toEqual([
      ["P", 1, undefined, [10]],
      ["PI", 4, ["<|im_end|>"], undefined],
    ]);
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("")).toBe("I am");
  });

  it("refuses on an engine that cannot ban a token", async () => {
    const engine: Engine = { name: "webllm", generate: async function* () {} };
    await expect(async () => {
      for await (const chunk of bannedFirstTokenEngine(engine, [1]).generate("P", {}, new AbortController().signal)) void chunk;
    }).rejects.toThrow("cannot ban a token");
  });
});
