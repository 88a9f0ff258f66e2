import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, EngineChunk, ToolCall } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { NOT_RUN_RESULT, readsValuesAsText, runEvalCase } from "./run-case.ts";
import { jobKey, planJobs, runJobs, samePrompt } from "./run-matrix.ts";
import { summarise, wilson } from "./summary.ts";

/** An engine that answers each prompt with the text `reply` makes of it. */
function textEngine(reply: (prompt: string) => string | Error): Engine & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name: "test",
    prompts,
    async *generate(prompt): AsyncGenerator<EngineChunk> {
      prompts.push(prompt);
      const text = reply(prompt);
      if (text instanceof Error) throw text;
      yield { type: "text", text };
      yield { type: "usage", usage: { completionTokens: 7, finishReason: "stop" } };
    },
  };
}

const hermes = getProtocol("hermes")!;
const xml = getProtocol("xml")!;
const written = (protocol = hermes, calls: Array<Omit<ToolCall, "id">>) => protocol.renderAssistant({ role: "assistant", content: "", toolCalls: calls.map((call, i) => ({ id: `c${i}`, ...call })) });

describe("runEvalCase: the first step, recorded and scored", () => {
  it("records the case as an event log (tools not run) and scores a right answer as pass and strict pass", async () => {
    const testCase = bfclCase("simple_python_1"); // math.factorial(number=5)
    const engine = textEngine(() => written(hermes, [{ name: "math.factorial", arguments: { number: 5 } }]));
    const run = await runEvalCase({ engine, mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(run?.result).toMatchObject({ id: "simple_python_1", category: "simple_python", protocol: "hermes", mode: "prompt", pass: true, strictPass: true, reason: "", calls: [{ name: "math.factorial", arguments: { number: 5 } }], completionTokens: 7 });
    // The dotted name goes to the model as it is in prompt mode.
    expect(engine.prompts[0]).toContain('"name": "math.factorial"');
    const types = run!.events.map((event) => event.type);
    expect(types[0]).toBe("run-start");
    expect(types.filter((type) => type === "step-start")).toHaveLength(1);
    expect(types.at(-1)).toBe("run-end");
    const toolEnd = run!.events.find((event) => event.type === "tool-end");
    expect(toolEnd?.type === "tool-end" && toolEnd.content).toBe(NOT_RUN_RESULT);
  });

  it("a repaired answer passes but not strictly; a wrong one fails with the reason", async () => {
    const testCase = bfclCase("simple_python_0"); // calculate_triangle_area(base=10, height=5)
    const repaired = await runEvalCase({ engine: textEngine(() => '<tool_call>\n{"name": "calculate_triangle_area", "arguments": {"base": "10", "height": 5}}\n</tool_call>'), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(repaired?.result).toMatchObject({ pass: true, strictPass: false, reason: 'strict: repaired: base: "10" → 10 (integer)' });
    const wrong = await runEvalCase({ engine: textEngine(() => written(hermes, [{ name: "calculate_triangle_area", arguments: { base: 12, height: 5 } }])), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(wrong?.result).toMatchObject({ pass: false, strictPass: false, reason: "base: 12 is not one of [10]" });
    const leftover = await runEvalCase({ engine: textEngine(() => `${written(hermes, [{ name: "calculate_triangle_area", arguments: { base: 10, height: 5 } }])}\n</tool_call>`), mode: "prompt", protocol: hermes, testCase, constrained: false });
    // A stray close tag is dropped by the parser (a repair) — either way not a strict pass.
    expect(leftover?.result).toMatchObject({ pass: true, strictPass: false, reason: expect.stringMatching(/^strict: .*<\/tool_call>/) });
  });

  it("a call taken back while streaming (text that only began like one) is not a repair: the verdict does not depend on chunking", async () => {
    const xlam = getProtocol("xlam")!;
    const testCase = bfclCase("irrelevance_0"); // no call expected; its tool is determine_body_mass_index
    const reply = 'Note {"name": "determine_body_mass_index", "arguments": {"weight": 1}, "extra": [1, 2}} done';
    const charByChar: Engine = {
      name: "test",
      async *generate(): AsyncGenerator<EngineChunk> {
        for (const ch of reply) yield { type: "text", text: ch };
        yield { type: "usage", usage: { completionTokens: 7, finishReason: "stop" } };
      },
    };
    const streamed = await runEvalCase({ engine: charByChar, mode: "prompt", protocol: xlam, testCase, constrained: false });
    const taken = streamed!.events.filter((e) => e.type === "parse" && e.event.type === "repair" && e.event.kind === "not-a-call");
    expect(taken).toHaveLength(1);
    const whole = await runEvalCase({ engine: textEngine(() => reply), mode: "prompt", protocol: xlam, testCase, constrained: false });
    expect(whole?.result).toMatchObject({ pass: true, strictPass: true });
    expect(streamed?.result).toMatchObject({ pass: true, strictPass: true });
  });

  it("an XML protocol's values arrive as text: reading them is not a repair", async () => {
    expect(readsValuesAsText(xml)).toBe(true);
    expect(readsValuesAsText(hermes)).toBe(false);
    const testCase = bfclCase("simple_python_0");
    const run = await runEvalCase({ engine: textEngine(() => written(xml, [{ name: "calculate_triangle_area", arguments: { base: 10, height: 5 } }])), mode: "prompt", protocol: xml, testCase, constrained: false, valuesAsText: true });
    expect(run?.result).toMatchObject({ pass: true, strictPass: true });
  });

  it("native mode sends dotted names with _ and maps the server's calls back", async () => {
    const testCase = bfclCase("simple_python_1");
    const bodies: Record<string, unknown>[] = [];
    const engine: Engine = {
      name: "native-test",
      generate: () => {
        throw new Error("prompt mode is not used");
      },
      native: {
        request: (input) => ({ tools: input.tools.map((tool) => tool.name) }),
        async *generate(body) {
          bodies.push(body);
          yield { type: "tool-call-delta", index: 0, id: "x", name: "math_factorial", argumentsDelta: '{"number": 5}' };
          yield { type: "usage", usage: { finishReason: "tool_calls" } };
        },
      },
    };
    const run = await runEvalCase({ engine, mode: "native", protocol: hermes, testCase, constrained: false });
    expect(bodies[0]).toEqual({ tools: ["math_factorial"] });
    expect(run?.result).toMatchObject({ protocol: "native", mode: "native", pass: true, strictPass: true, calls: [{ name: "math.factorial", arguments: { number: 5 } }] });
  });

  it("a case whose engine fails is recorded as failed with the reason", async () => {
    const run = await runEvalCase({ engine: textEngine(() => new Error("server answered 500")), mode: "prompt", protocol: hermes, testCase: bfclCase("simple_python_0"), constrained: false });
    expect(run?.result.pass).toBe(false);
    expect(run?.result.reason).toMatch(/^the case failed to run: .*server answered 500/);
  });

  it("constrained on an engine that cannot constrain says so in the result", async () => {
    const run = await runEvalCase({ engine: textEngine(() => ""), mode: "prompt", protocol: hermes, testCase: bfclCase("irrelevance_0"), constrained: true });
    expect(run?.result).toMatchObject({ pass: true, constrained: true, unconstrained: expect.stringContaining("cannot constrain") });
  });
});

describe("the matrix: jobs, concurrency, resume, summary", () => {
  const cases = [bfclCase("simple_python_0"), bfclCase("simple_python_1"), bfclCase("irrelevance_0")];

  it("plans cases × protocols × constrained × repeats (native: one row, unconstrained)", () => {
    const jobs = planJobs({ cases, mode: "prompt", protocols: ["hermes", "xml"], constrained: [false, true], repeats: 2 });
    expect(jobs).toHaveLength(3 * 2 * 2 * 2);
    expect(new Set(jobs.map((job) => job.key)).size).toBe(jobs.length);
    const native = planJobs({ cases, mode: "native", protocols: ["hermes", "xml"], constrained: [false, true], repeats: 1 });
    expect(native.map((job) => [job.protocol, job.constrained])).toEqual([["native", false], ["native", false], ["native", false]]);
  });

  it("jobs kept together (a case's free and constrained runs: one prompt) run one after the other on one worker, never side by side", async () => {
    const jobs = planJobs({ cases, mode: "prompt", protocols: ["hermes"], constrained: [false, true], repeats: 1 });
    const log: string[] = [];
    const workerOf = new Map<string, number>();
    await runJobs({
      jobs,
      concurrency: 2,
      signal: new AbortController().signal,
      together: samePrompt,
      run: async (job, _signal, worker) => {
        workerOf.set(`${job.testCase.id} ${job.constrained ? "on" : "off"}`, worker);
        log.push(`start ${job.testCase.id} ${job.constrained ? "on" : "off"}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        log.push(`end ${job.testCase.id} ${job.constrained ? "on" : "off"}`);
        return job.key;
      },
      onDone: () => undefined,
    });
    for (const testCase of cases) {
      // The constrained run starts only once the free one of the same case has ended.
      const endOff = log.indexOf(`end ${testCase.id} off`);
      const startOn = log.indexOf(`start ${testCase.id} on`);
      expect(endOff).toBeGreaterThanOrEqual(0);
      expect(startOn).toBeGreaterThan(endOff);
    }
    // Two workers were busy at once (the pairs ran side by side, not one at a time).
    expect(log.slice(0, 2)).toEqual([`start ${cases[0]!.id} off`, `start ${cases[1]!.id} off`]);
    // Each run says which worker ran it (a caller with a server per worker sends it there): both
    // workers were used, and a case's two runs had the same one, so the second finds its prompt cached.
    expect(new Set(workerOf.values())).toEqual(new Set([0, 1]));
    for (const testCase of cases) expect(workerOf.get(`${testCase.id} on`)).toBe(workerOf.get(`${testCase.id} off`));
  });

  it("runs at most `concurrency` jobs at once, skips those done, and stops on the signal", async () => {
    const jobs = planJobs({ cases, mode: "prompt", protocols: ["hermes", "xml"], constrained: [false], repeats: 1 });
    let running = 0;
    let most = 0;
    const finished: string[] = [];
    const done = new Set([jobs[0]!.key]);
    await runJobs({
      jobs,
      concurrency: 2,
      signal: new AbortController().signal,
      done,
      run: async (job) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running -= 1;
        return job.key;
      },
      onDone: (_job, key) => finished.push(key),
    });
    expect(most).toBe(2);
    expect(finished.sort()).toEqual(jobs.slice(1).map((job) => job.key).sort());

    const controller = new AbortController();
    const stopped: string[] = [];
    await runJobs({
      jobs,
      concurrency: 1,
      signal: controller.signal,
      run: (job) => {
        if (stopped.length === 1) controller.abort();
        return Promise.resolve(controller.signal.aborted ? undefined : job.key);
      },
      onDone: (_job, key) => stopped.push(key),
    });
    expect(stopped).toEqual([jobs[0]!.key]);
    expect(jobKey({ id: "a", protocol: "xml", mode: "prompt", constrained: true, repeat: 1 })).toBe("prompt|xml|c|1|a");
  });

  it("summarises pass and strict rates per row and category; Wilson intervals", async () => {
    const results = [];
    for (const testCase of cases) {
      const run = await runEvalCase({ engine: textEngine(() => (testCase.expectsNoCall ? "No tool fits." : written(hermes, [{ name: testCase.expected[0]!.name, arguments: { number: 5, base: 10, height: 5 } }]))), mode: "prompt", protocol: hermes, testCase, constrained: false });
      results.push(run!.result);
    }
    expect(summarise(results)).toEqual([
      { protocol: "hermes", mode: "prompt", constrained: false, category: "simple_python", n: 2, pass: 0, strictPass: 0 },
      { protocol: "hermes", mode: "prompt", constrained: false, category: "irrelevance", n: 1, pass: 1, strictPass: 1 },
    ]);
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 3);
    expect(half.high).toBeCloseTo(0.7634, 3);
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 3);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});
