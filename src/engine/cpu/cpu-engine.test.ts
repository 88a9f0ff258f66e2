import { describe, expect, it } from "vitest";
import type { EngineChunk, StructuralTag } from "toolcall-middleware/types.ts";
import { completionBody, type CompletionBody } from "./completion-body.ts";
import { CpuEngine, type CompletionChunk } from "./cpu-engine.ts";
import { promptForRuntime } from "./runtime-prompt.ts";
import { ASIDE_PROMPT, setAsidePrompt } from "./prompt-cache-plan.ts";
import { bosTextOf } from "./cpu-models.ts";
import { GEMMA_TOKENS } from "toolcall-middleware/families/gemma2.ts";

/** A runtime that plays chunks and records the body it was given (wllama's API edge). */
function scriptedRuntime(chunks: CompletionChunk[], options: { failWith?: Error; onChunk?: (index: number) => void } = {}) {
  const bodies: CompletionBody[] = [];
  return {
    bodies,
    complete: async (body: CompletionBody, signal: AbortSignal) => {
      bodies.push(body);
      return (async function* () {
        for (const [index, chunk] of chunks.entries()) {
          if (signal.aborted) {
            const error = new Error("aborted");
            error.name = "WllamaAbortError";
            throw error;
          }
          options.onChunk?.(index);
          yield chunk;
        }
        if (options.failWith) throw options.failWith;
      })();
    },
  };
}

async function collect(stream: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

const text = (t: string): CompletionChunk => ({ choices: [{ text: t, finish_reason: null }] });
const final = (finish: string, timings: CompletionChunk["timings"]): CompletionChunk => ({ choices: [{ text: "", finish_reason: finish }], timings });

describe("the CPU engine's request", () => {
  it("sends the step's settings in llama-server's names, with the prompt cache on", () => {
    const body = completionBody("<|im_start|>user\nhi<|im_end|>\n", { maxTokens: 64, temperature: 0, topP: 0.9, repetitionPenalty: 1.1, presencePenalty: 0.5, frequencyPenalty: 0.25, seed: 7, stop: ["<|im_end|>", ""], grammar: 'root ::= "x"' }, { runtimeAddsBos: false });
    expect(body).toEqual({
      prompt: "<|im_start|>user\nhi<|im_end|>\n",
      stream: true,
      cache_prompt: true,
      return_progress: true,
      n_predict: 64,
      temperature: 0,
      top_p: 0.9,
      repeat_penalty: 1.1,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      seed: 7,
      stop: ["<|im_end|>"],
      grammar: 'root ::= "x"',
    });
  });

  it("drops a seed that is not an integer", () => {
    expect(completionBody("p", { seed: 1.5 }, { runtimeAddsBos: false }).seed).toBeUndefined();
  });

  it("sends lone surrogates as U+FFFD (llama.cpp's JSON reader throws on them) and keeps whole emoji", () => {
    const body = completionBody("a\ud800b 😀 c\udc00", { stop: ["\ud83d"], grammar: 'root ::= "\udfff"' }, { runtimeAddsBos: false });
    expect(body.prompt).toBe("a\ufffdb 😀 c\ufffd");
    expect(body.stop).toEqual(["\ufffd"]);
    expect(body.grammar).toBe('root ::= "\ufffd"');
    expect(JSON.stringify(body)).not.toMatch(/\\ud[89a-f]/i);
  });
});

describe("one BOS token whatever the runtime adds", () => {
  const gemmaPrompt = "<bos><start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\n";

  it("leaves out the prompt's own <bos> where llama.cpp puts one in front (Gemma 3: add_bos_token true)", () => {
    expect(promptForRuntime(gemmaPrompt, { runtimeAddsBos: true, bosText: "<bos>" })).toBe("<start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\n");
  });

  it("keeps it where the runtime adds none", () => {
    expect(promptForRuntime(gemmaPrompt, { runtimeAddsBos: false, bosText: "<bos>" })).toBe(gemmaPrompt);
  });

  it("removes only a leading BOS: a <bos> typed later in the prompt stays text", () => {
    const prompt = "<start_of_turn>user\nwhat is <bos>?<end_of_turn>\n";
    expect(promptForRuntime(prompt, { runtimeAddsBos: true, bosText: "<bos>" })).toBe(prompt);
  });

  it("finds Gemma's BOS among its control tokens, and none for ChatML", () => {
    expect(bosTextOf(GEMMA_TOKENS)).toBe("<bos>");
    expect(bosTextOf(["<|im_start|>", "<|im_end|>"])).toBeUndefined();
  });

  it("the engine sends Gemma's prompt without its <bos> when the model adds one", async () => {
    const runtime = scriptedRuntime([final("stop", { prompt_n: 12, cache_n: 0, predicted_n: 0 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: true, bosText: "<bos>" } });
    await collect(engine.generate(gemmaPrompt, {}, new AbortController().signal));
    expect(runtime.bodies[0]!.prompt.startsWith("<bos>")).toBe(false);
    expect(runtime.bodies[0]!.prompt).toBe(gemmaPrompt.slice("<bos>".length));
  });
});

describe("the CPU engine's stream", () => {
  it("streams text and reports usage from llama.cpp's timings (prefix reuse as reused vs prefilled)", async () => {
    let t = 0;
    const runtime = scriptedRuntime([text("Hel"), text("lo"), final("stop", { prompt_n: 40, cache_n: 960, prompt_per_second: 250, predicted_n: 2, predicted_per_second: 30 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false }, contextWindowSize: 8192, now: () => (t += 5) });
    const chunks = await collect(engine.generate("p", { maxTokens: 100 }, new AbortController().signal));
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("")).toBe("Hello");
    const usage = chunks.at(-1);
    expect(usage).toEqual({
      type: "usage",
      usage: { kvState: "kv_cache", promptTokens: 1000, prefilledTokens: 40, reusedTokens: 960, completionTokens: 2, prefillTokensPerSecond: 250, decodeTokensPerSecond: 30, timeToFirstTokenMs: 5, finishReason: "stop" },
    });
  });

  it("tells a spent max_tokens budget from a full context window", async () => {
    const budget = scriptedRuntime([text("a"), final("length", { prompt_n: 10, cache_n: 0, predicted_n: 4 })]);
    const byBudget = await collect(new CpuEngine({ name: "t", runtime: budget, bos: { runtimeAddsBos: false }, contextWindowSize: 100 }).generate("p", { maxTokens: 4 }, new AbortController().signal));
    expect(byBudget.at(-1)).toMatchObject({ usage: { finishReason: "length", cutOff: "max-tokens" } });
    const window = scriptedRuntime([text("a"), final("length", { prompt_n: 90, cache_n: 0, predicted_n: 10 })]);
    const byWindow = await collect(new CpuEngine({ name: "t", runtime: window, bos: { runtimeAddsBos: false }, contextWindowSize: 100 }).generate("p", { maxTokens: 50 }, new AbortController().signal));
    expect(byWindow.at(-1)).toMatchObject({ usage: { finishReason: "length", cutOff: "context-window" } });
  });

  it("Stop ends the stream at once, keeps every piece that streamed, and says it was aborted", async () => {
    const controller = new AbortController();
    const runtime = scriptedRuntime([text("one "), text("two "), text("three "), text("four")], { onChunk: (i) => i === 1 && controller.abort() });
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    const chunks = await collect(engine.generate("p", {}, controller.signal));
    const texts = chunks.filter((c) => c.type === "text").map((c) => (c as { text: string }).text);
    expect(texts).toEqual(["one ", "two "]);
    expect(chunks.at(-1)).toMatchObject({ type: "usage", usage: { finishReason: "abort" } });
  });

  it("a runtime failure that is not a Stop reaches the loop", async () => {
    const runtime = scriptedRuntime([text("x")], { failWith: new Error("failed to parse grammar") });
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    await expect(collect(engine.generate("p", {}, new AbortController().signal))).rejects.toThrow("failed to parse grammar");
  });

  it("constrains a step with its structural tag written as a llama.cpp grammar", async () => {
    const runtime = scriptedRuntime([final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 0 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    expect(engine.constrains).toEqual({ supported: true });
    const structuralTag: StructuralTag = {
      type: "structural_tag",
      format: { type: "triggered_tags", triggers: ["<tool_call>"], tags: [{ type: "tag", begin: "<tool_call>", content: { type: "json_schema", json_schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, end: "</tool_call>" }] },
    };
    const chunks = await collect(engine.generate("p", {}, new AbortController().signal, { structuralTag }));
    expect(chunks.at(-1)).toMatchObject({ type: "usage", usage: { constraintSentAs: "grammar" } });
    const grammar = runtime.bodies[0]!.grammar;
    expect(grammar).toMatch(/^root ::= /m);
    expect(grammar).toContain("<tool_call>");
  });

  it("without a structural tag, sends the step's own grammar if it has one, else none", async () => {
    const runtime = scriptedRuntime([final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 0 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    await collect(engine.generate("p", {}, new AbortController().signal));
    await collect(engine.generate("p", { grammar: 'root ::= "yes"' }, new AbortController().signal));
    expect(runtime.bodies.map((b) => b.grammar)).toEqual([undefined, 'root ::= "yes"']);
  });
});

/** A chunk as llama.cpp's server writes it with n_probs: `logprobs.content`, one entry per token. */
const withProbs = (t: string, p: number, alternatives: Array<[string, number]>): CompletionChunk => ({
  choices: [{ text: t, finish_reason: null, logprobs: { content: [{ id: 7, token: t, logprob: Math.log(p), bytes: [], top_logprobs: alternatives.map(([token, q], i) => ({ id: 100 + i, token, logprob: Math.log(q), bytes: [] })) }] } }],
});

describe("the CPU engine's probes keep the readings of prompts that share a start", () => {
  it("puts the slot's reading aside before a sibling would overwrite it, and recalls the sibling's when it is asked again", async () => {
    const runtime = scriptedRuntime([withProbs("<", 0.2, [["<", 0.2]]), final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 1 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false }, tokenize: async () => [7] });
    const shared = "s".repeat(100);
    const a = `${shared}${"a".repeat(50)}`;
    const b = `${shared}${"b".repeat(200)}`;
    const signal = new AbortController().signal;
    for (const prompt of [a, b, a, b]) await engine.probeText!(prompt, "<", signal);
    expect(runtime.bodies.map((body) => (body.prompt === a ? "a" : body.prompt === b ? "b" : body.prompt === ASIDE_PROMPT ? "aside" : body.prompt === setAsidePrompt(a) ? "set a aside" : body.prompt))).toEqual(["a", "set a aside", "b", "a", "aside", "b"]);
    // The requests that go first write one token and ask for no probabilities.
    expect(runtime.bodies.filter((body) => body.prompt === ASIDE_PROMPT || body.prompt === setAsidePrompt(a)).map((body) => [body.n_predict, body.n_probs, body.grammar])).toEqual([[1, undefined, undefined], [1, undefined, undefined]]);
  });
});

describe("the CPU engine's token probabilities", () => {
  it("says it can record them", () => {
    expect(new CpuEngine({ name: "t", runtime: scriptedRuntime([]), bos: { runtimeAddsBos: false } }).tokenProbabilities).toEqual({ supported: true });
  });

  it("asks llama.cpp for n_probs only when the step records probabilities", async () => {
    const runtime = scriptedRuntime([final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 0 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    await collect(engine.generate("p", {}, new AbortController().signal));
    await collect(engine.generate("p", {}, new AbortController().signal, { topProbabilities: 5 }));
    expect(runtime.bodies.map((b) => b.n_probs)).toEqual([undefined, 5]);
  });

  it("maps each token's logprob and alternatives into the chunks the event log records", async () => {
    const runtime = scriptedRuntime([withProbs("<tool_call>", 0.6, [["<tool_call>", 0.6], ["I", 0.3]]), final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 1 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    const chunks = await collect(engine.generate("p", {}, new AbortController().signal, { topProbabilities: 2 }));
    const first = chunks[0] as Extract<EngineChunk, { type: "text" }>;
    expect(first.text).toBe("<tool_call>");
    expect(first.tokens).toHaveLength(1);
    expect(first.tokens![0]!.text).toBe("<tool_call>");
    expect(first.tokens![0]!.p).toBeCloseTo(0.6);
    expect(first.tokens![0]!.top.map((a) => [a.text, a.id, Number(a.p.toFixed(3))])).toEqual([["<tool_call>", 100, 0.6], ["I", 101, 0.3]]);
    expect((chunks.at(-1) as Extract<EngineChunk, { type: "usage" }>).usage.probabilitiesMissing).toBeUndefined();
  });

  it("says so in the step's usage when probabilities were asked for and none came", async () => {
    const runtime = scriptedRuntime([text("a"), final("stop", { prompt_n: 1, cache_n: 0, predicted_n: 1 })]);
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    const chunks = await collect(engine.generate("p", {}, new AbortController().signal, { topProbabilities: 3 }));
    expect(chunks[0]).toEqual({ type: "text", text: "a" });
    expect(chunks.at(-1)).toMatchObject({ usage: { probabilitiesMissing: expect.stringContaining("n_probs") } });
  });
});

describe("the CPU engine's prompt-cache warm-ups", () => {
  /** A runtime whose reading of each prompt lasts until it is released or stopped. */
  function heldRuntime() {
    const bodies: CompletionBody[] = [];
    const releases: Array<() => void> = [];
    return {
      bodies,
      releases,
      complete: async (body: CompletionBody, signal: AbortSignal) => {
        bodies.push(body);
        return (async function* () {
          await new Promise<void>((resolve) => {
            releases.push(resolve);
            signal.addEventListener("abort", () => resolve(), { once: true });
          });
          if (signal.aborted) {
            const error = new Error("aborted");
            error.name = "WllamaAbortError";
            throw error;
          }
          yield final("length", { prompt_n: 10, cache_n: 0 } as CompletionChunk["timings"]);
        })();
      },
    };
  }

  it("a warm-up of a text the new one does not start with gives way at once; one it starts with is waited for", async () => {
    const runtime = heldRuntime();
    const engine = new CpuEngine({ name: "t", runtime, bos: { runtimeAddsBos: false } });
    const signal = new AbortController().signal;
    const lab = engine.warmPrompt("<|im_start|>system\nThe Lab's conversation", signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Evaluate's first case: another text. The Lab's reading stops; the case's start is read.
    const evaluate = engine.warmPrompt("<|im_start|>system\nA case's tools", signal);
    expect(await lab).toBe("stopped");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.bodies.map((b) => b.prompt)).toEqual(["<|im_start|>system\nThe Lab's conversation", "<|im_start|>system\nA case's tools"]);
    // A longer text that starts with the one being read waits for it instead of stopping it.
    const longer = engine.warmPrompt("<|im_start|>system\nA case's tools and more", signal);
    runtime.releases[1]!();
    expect(await evaluate).not.toBe("stopped");
    await new Promise((resolve) => setTimeout(resolve, 0));
    runtime.releases[2]!();
    expect(await longer).not.toBe("stopped");
  });
});
