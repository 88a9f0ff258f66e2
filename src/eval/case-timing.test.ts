// Where a case's time went, read back from its log: the server's prefill and decode (tokens and
// its own rates), the cache it reused, and how the reply ended; summed per matrix row.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, EngineChunk, EngineUsage } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { caseTiming, timingTable } from "./case-timing.ts";
import { runEvalCase } from "./run-case.ts";

function engineWith(text: string, usage: EngineUsage): Engine {
  return {
    name: "llama.cpp-like",
    async *generate(): AsyncGenerator<EngineChunk> {
      yield { type: "text", text };
      yield { type: "usage", usage };
    },
  };
}

async function timedCase(protocol: string, text: string, usage: EngineUsage) {
  const run = await runEvalCase({ engine: engineWith(text, usage), mode: "prompt", protocol: getProtocol(protocol)!, testCase: bfclCase("irrelevance_1"), constrained: false });
  return { result: run!.result, timing: caseTiming(run!.events) };
}

describe("caseTiming", () => {
  it("takes prefill and decode from the server's own counts and rates, and how the reply ended", async () => {
    const { timing } = await timedCase("hermes", "It is sunny.", { promptTokens: 300, reusedTokens: 64, prefilledTokens: 236, prefillTokensPerSecond: 118, completionTokens: 40, decodeTokensPerSecond: 20, finishReason: "stop" });
    expect(timing).toEqual({ promptTokens: 300, reusedTokens: 64, prefilledTokens: 236, prefillMs: 2000, completionTokens: 40, decodeMs: 2000, end: "stop" });
  });

  it("a reply cut at its budget ends at max-tokens; a server without timings leaves the times out", async () => {
    const { timing } = await timedCase("xml", "and so on", { promptTokens: 200, completionTokens: 256, finishReason: "length", cutOff: "max-tokens" });
    expect(timing).toEqual({ promptTokens: 200, completionTokens: 256, end: "max-tokens" });
  });

  it("the table has a row per protocol: cases, mean tokens, how replies ended, seconds of prefill and decode", async () => {
    const timed = [
      await timedCase("hermes", "It is sunny.", { promptTokens: 300, reusedTokens: 64, prefilledTokens: 236, prefillTokensPerSecond: 118, completionTokens: 40, decodeTokensPerSecond: 20, finishReason: "stop" }),
      await timedCase("hermes", "and so on", { promptTokens: 200, reusedTokens: 0, prefilledTokens: 200, prefillTokensPerSecond: 100, completionTokens: 256, decodeTokensPerSecond: 16, finishReason: "length", cutOff: "max-tokens" }),
      await timedCase("xml", "fine", { promptTokens: 400, completionTokens: 10, finishReason: "stop" }),
    ];
    const lines = timingTable(timed).split("\n");
    expect(lines[0]).toMatch(/^protocol\s+cases\s+prompt tok\s+reused\s+reply tok\s+stop\s+max-tokens\s+repetition\s+other\s+prefill s\s+decode s$/);
    expect(lines[2]!.split(/\s+/)).toEqual(["hermes", "2", "250", "32", "148", "1", "1", "0", "0", "4.0", "18.0"]);
    expect(lines[3]!.split(/\s+/)).toEqual(["xml", "1", "400", "–", "10", "1", "0", "0", "0", "–", "–"]);
  });
});
