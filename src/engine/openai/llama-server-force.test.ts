// Forcing the decision on real models (issue #38): llama.cpp's llama-server with SmolLM2 135M and
// Gemma 3 270M, started here on 127.0.0.1, through the lab's server engine in prompt mode at
// temperature 0. Every figure is compared with what llama-server itself reports for the same
// tokens (its own /completion, /tokenize), never with words a model writes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { gbnfLiteral } from "toolcall-middleware/grammar/gbnf-builder.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import { stepDecisionPoint } from "toolcall-middleware/probabilities/step-decision.ts";
import { stepTokens } from "toolcall-middleware/probabilities/step-tokens.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { manifestModel, realModelsForTests, startLlamaServer, type LlamaServer } from "../../../scripts/real-models/llama-server-process.ts";
import { completion, nextTokenProbabilities, tokenize } from "../../../scripts/real-models/llama-server-api.ts";
import { forcedBranchOfStepStart, runBranch, type BranchRequest } from "../../experiments/branch-run.ts";
import { openerTokensToBan } from "../../experiments/force-decision.ts";
import { protocolLean } from "../../experiments/protocol-lean.ts";
import { probeLlamaCpp } from "./llama-cpp-probe.ts";
import { OpenAiEngine } from "./openai-engine.ts";

// Two protocols per model.
const MODELS = [
  { id: "smollm2-135m-instruct-q4_1", protocols: ["hermes", "xml"] },
  { id: "gemma-3-270m-q4_k_m", protocols: ["pythonic", "hermes"] },
];
// A reply that is a whole Hermes call, made so by a grammar.
const HERMES_CALL = `root ::= ${gbnfLiteral('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>')}`;
const real = realModelsForTests(MODELS.map((m) => m.id));

const weather: ExecutableTool = {
  name: "get_weather",
  description: "Get the current weather in a city",
  parameters: { type: "object", properties: { city: { type: "string", description: "The city" } }, required: ["city"] },
  execute: async () => "sunny, 24 °C",
};
const generation = { temperature: 0, maxTokens: 12, seed: 1 };
type Of<T extends LoopEvent["type"]> = Extract<LoopEvent, { type: T }>;

/** The ids llama.cpp reads for a prompt the lab sends as text (control tokens parsed; Gemma's <bos> is in the lab's prompt). */
const promptIds = (server: LlamaServer, prompt: string) => tokenize(server, prompt, { parseSpecial: true });

const relativelyClose = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance * Math.max(a, b);

/** Checks a measured marker against llama-server: each token's p at the same prefix (ids), and their product. */
async function expectAsLlamaServer(server: LlamaServer, prompt: string, measured: { marker: string; p: number; tokens: Array<{ text: string; p: number; id?: number }> }) {
  const ids = await promptIds(server, prompt);
  expect(measured.tokens.map((t) => t.text).join("")).toBe(measured.marker);
  let product = 1;
  for (const [i, token] of measured.tokens.entries()) {
    expect(token.id).toBeDefined();
    const own = await nextTokenProbabilities(server, [...ids, ...measured.tokens.slice(0, i).map((t) => t.id!)], 2000);
    const expected = own.get(token.id!);
    expect(expected, `token ${i} (${JSON.stringify(token.text)}) is not in llama-server's top 2000 there`).toBeDefined();
    // Recorded at three significant digits.
    expect(relativelyClose(token.p, expected!, 0.006), `token ${i}: probe ${token.p}, llama-server ${expected}`).toBe(true);
    product *= expected!;
  }
  expect(relativelyClose(measured.p, product, 0.006), `marker ${measured.marker}: probe ${measured.p}, llama-server ${product}`).toBe(true);
}

async function firstStep(engine: OpenAiEngine, protocol: string, family: string, content: string, grammar?: string, maxTokens = generation.maxTokens) {
  const events: LoopEvent[] = [];
  const template = familyChatTemplate(familyById(family)!);
  for await (const event of runToolLoop({ engine, protocol: getProtocol(protocol)!, tools: [weather], messages: [{ role: "user", content }], template, generation: { ...generation, maxTokens, ...(grammar ? { grammar } : {}) }, maxSteps: 1, runId: "r" })) events.push(event);
  const start = events.find((e): e is Of<"step-start"> => e.type === "step-start")!;
  const end = events.find((e): e is Of<"step-end"> => e.type === "step-end")!;
  return { events, start, end, tokens: stepTokens(events, "r", start.stepId), point: stepDecisionPoint(events, "r", start.stepId) };
}

async function branch(engine: OpenAiEngine, start: Of<"step-start">, extra: Pick<BranchRequest, "forced" | "banned" | "force">) {
  const events: LoopEvent[] = [];
  const run = runBranch(forcedBranchOfStepStart(start, getProtocol(start.protocol)!, [weather], extra), { engine }, new AbortController().signal);
  for (;;) {
    const next = await run.next();
    if (next.done) break;
    events.push(next.value);
  }
  const branchStart = events.find((e): e is Of<"step-start"> => e.type === "step-start")!;
  return { events, start: branchStart, tokens: stepTokens(events, branchStart.runId, branchStart.stepId) };
}

for (const model of MODELS) {
  describe.skipIf(!real.run)(`forcing the decision with ${model.id} on llama-server${real.run ? "" : ` (skipped: ${real.why})`}`, () => {
    let server: LlamaServer;
    let engine: OpenAiEngine;
    const family = real.run ? manifestModel(model.id).family : "";
    beforeAll(async () => {
      // One token per evaluation (-ub 1): llama.cpp's probabilities depend on how many prompt tokens
      // are evaluated together (SmolLM2, the same 199-token prefix: p(`<`) = 0.00101 with the last
      // token in a batch, 0.000884 alone); with single-token batches the probe and llama-server's
      // own answer for the same prefix are computed alike, whatever the prompt cache held.
      server = await startLlamaServer({ modelId: model.id, contextSize: 4096, extraArgs: ["-ub", "1"] });
      const facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
      expect(facts, "llama-server must be recognised as llama.cpp").toBeDefined();
      engine = new OpenAiEngine({ baseUrl: server.baseUrl, apiKey: server.apiKey, model: server.model.id, mode: "prompt", llamaCpp: facts! });
    }, 120_000);
    afterAll(() => server?.stop());

    for (const protocol of model.protocols) {
      it(`measures the opener's probability at the decision point (${protocol}): each token's p equals llama-server's for the same prefix`, async () => {
        const { start, end, point } = await firstStep(engine, protocol, family, "Hello! Who are you?");
        if (point.kind !== "no-call") throw new Error(`the step must open no call for this test (decision point: ${point.kind})`);
        const probe = end.openerProbe;
        if (!probe || !("markers" in probe)) throw new Error(`no opener probe recorded: ${JSON.stringify(probe)}`);
        expect(probe.at).toBe(0);
        expect(probe.markers.map((m) => m.marker)).toEqual(openingMarkers(getProtocol(protocol)!, [weather]));
        for (const measured of probe.markers) await expectAsLlamaServer(server, start.prompt, measured);
        console.log(`[opener probe] ${model.id} ${protocol}: ${probe.markers.map((m) => `${JSON.stringify(m.marker)} p = ${m.p} (${m.tokens.length} tokens)`).join("; ")}`);
      }, 600_000);
    }

    it("gives a held-back `<` its own token, and the next token llama-server's own alternatives at that position", async () => {
      const lt = await tokenize(server, "<", { parseSpecial: false });
      expect(lt).toHaveLength(1);
      // The reply's first token is `<` (a grammar of that token id), then free text.
      const { events, start, tokens } = await firstStep(engine, "hermes", family, "What is the weather in Rome?", `root ::= <[${lt[0]}]> [^\\x01]*`);
      const output = events.filter((e): e is Of<"output-delta"> => e.type === "output-delta").map((e) => e.text).join("");
      expect(tokens.map((t) => t.token.text).join("")).toBe(output);
      const held = tokens.findIndex((t, i) => t.token.text.endsWith("<") && i + 1 < tokens.length);
      expect(held, `no token ending in "<" with one after it: ${JSON.stringify(tokens.map((t) => t.token.text))}`).toBeGreaterThanOrEqual(0);
      const prompt = await promptIds(server, start.prompt);
      const ids = tokens.map((t) => t.token.id!);
      expect(ids.every((id) => id !== undefined)).toBe(true);
      for (const at of [held, held + 1]) {
        const own = await nextTokenProbabilities(server, [...prompt, ...ids.slice(0, at)], 5);
        const recorded = tokens[at]!.token;
        // The same ids, the same probabilities (three significant digits), as llama-server lists them there.
        expect(recorded.top.map((a) => a.id)).toEqual([...own.keys()]);
        for (const a of recorded.top) expect(relativelyClose(a.p, own.get(a.id!)!, 0.006)).toBe(true);
      }
      // The held token is the `<` the grammar chose, with its own probability there (llama-server's).
      expect(tokens[held]!.token.id).toBe(lt[0]);
      expect(tokens[held]!.token.text).toBe("<");
      const atHeld = await nextTokenProbabilities(server, [...prompt, ...ids.slice(0, held)], 2000);
      expect(relativelyClose(tokens[held]!.token.p, atHeld.get(lt[0]!)!, 0.006)).toBe(true);
      // The next one was sampled freely (greedy): the first of its alternatives, with its own text, no `<` in front.
      const next = tokens[held + 1]!.token;
      expect(next.top[0]!.id).toBe(next.id);
      expect(next.top[0]!.text).toBe(next.text);
    }, 600_000);

    it("'force a call' on a step without one: the branch's prompt is the original plus the opener, and it continues as llama-server's greedy completion", async () => {
      const { start, point } = await firstStep(engine, model.protocols[0]!, family, "Hello! Who are you?");
      if (point.kind !== "no-call") throw new Error(`the step must open no call (decision point: ${point.kind})`);
      const marker = point.markers[0]!;
      const forced = await branch(engine, start, { forced: { offset: 0, token: marker, replaced: point.token.token.text, prefix: marker }, force: "call" });
      expect(forced.start.prompt).toBe(start.prompt + marker);
      const continued = forced.tokens.filter((t) => t.start >= marker.length);
      expect(continued.length).toBeGreaterThan(0);
      const own = await completion(server, { prompt: await promptIds(server, forced.start.prompt), n_predict: continued.length, temperature: 0, return_tokens: true, cache_prompt: true });
      const n = Math.min(continued.length, own.tokens.length);
      expect(n).toBeGreaterThan(0);
      expect(continued.slice(0, n).map((t) => t.token.id)).toEqual(own.tokens.slice(0, n));
    }, 600_000);

    it("'force no call' on a step with a call never writes the opener's first token there, and agrees with llama-server's own ban", async () => {
      const { start, point } = await firstStep(engine, "hermes", family, "What is the weather in Rome?", HERMES_CALL, 40);
      if (point.kind !== "call") throw new Error(`the step must open a call (decision point: ${point.kind})`);
      const banned = openerTokensToBan(point, openingMarkers(getProtocol(start.protocol)!, [weather]));
      expect(banned.length).toBeGreaterThan(0);
      const at = point.token.start;
      const forced = await branch(engine, start, { forced: { offset: at, token: "", replaced: point.token.token.text, prefix: "" }, banned, force: "no-call" });
      const first = forced.tokens.find((t) => t.start >= at);
      expect(first, "the branch wrote nothing").toBeDefined();
      expect(banned.map((b) => b.id)).not.toContain(first!.token.id);
      const own = await completion(server, { prompt: await promptIds(server, start.prompt), n_predict: 1, temperature: 0, return_tokens: true, logit_bias: banned.map((b) => [b.id, false]), cache_prompt: true });
      expect(first!.token.id).toBe(own.tokens[0]);
    }, 600_000);

    it("the protocol table: each protocol's opener probability equals llama-server's for the same prompt", async () => {
      const template = familyChatTemplate(familyById(family)!);
      const protocols = model.protocols.map((name) => getProtocol(name)!);
      const rows = await protocolLean({ engine, template, messages: [{ role: "user", content: "Hello! Who are you?" }], tools: [weather], protocols }, new AbortController().signal);
      expect(rows.map((r) => r.protocol)).toEqual(model.protocols);
      for (const row of rows) {
        if ("error" in row) throw new Error(`${row.protocol}: ${row.error}`);
        expect(row.prompt).toBe(renderPrompt({ tools: [weather], protocol: getProtocol(row.protocol)!, messages: [{ role: "user", content: "Hello! Who are you?" }], template }).prompt);
        for (const measured of row.markers) await expectAsLlamaServer(server, row.prompt, measured);
        expect(row.p).toBeCloseTo(Math.min(1, row.markers.reduce((sum, m) => sum + m.p, 0)), 12);
      }
      console.log(`[protocol table] ${model.id}: ${rows.map((r) => ("p" in r ? `${r.protocol} ${r.p}` : r.protocol)).join(" · ")}`);
    }, 600_000);
  });
}
