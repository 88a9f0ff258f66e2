// The evaluation's runner in the page, with a scripted in-page engine: the running case's reply
// reaches the view as it streams, figures come from the engine's timings, a case cut at max tokens
// says so, and Stop ends the run at once keeping the finished cases.
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { createStore } from "zustand/vanilla";
import { chatTemplateForModel } from "toolcall-middleware/families/registry.ts";
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { bfclFile } from "../eval/bfcl-fixtures.test-helper.ts";
import { progressFigures } from "../eval/progress.ts";
import type { EngineState } from "./engine-store.ts";
import { createEvaluation } from "./eval-store.ts";

/** An engine scripted per call: each reply is its chunks, then llama.cpp-like usage with timings. */
function scriptedEngine(replies: Array<{ chunks: string[]; finish?: "stop" | "length"; hold?: boolean }>) {
  let call = 0;
  const state = { started: 0, aborted: 0, release: () => {} };
  const engine: Engine = {
    name: "llama.cpp (wasm) scripted",
    async *generate(_prompt, settings, signal): AsyncGenerator<EngineChunk> {
      const reply = replies[call++ % replies.length]!;
      state.started += 1;
      for (const text of reply.chunks) yield { type: "text", text };
      if (reply.hold) {
        // Holds the case open (a long decode) until Stop, as the CPU engine does between tokens.
        await new Promise<void>((resolve) => {
          state.release = resolve;
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
        if (signal.aborted) {
          state.aborted += 1;
          yield { type: "usage", usage: { finishReason: "abort" } };
          return;
        }
      }
      const completionTokens = reply.finish === "length" ? (settings.maxTokens ?? 0) : 20;
      yield { type: "usage", usage: { promptTokens: 300, prefilledTokens: 300, prefillTokensPerSecond: 15, completionTokens, decodeTokensPerSecond: 5, finishReason: reply.finish ?? "stop", ...(reply.finish === "length" ? { cutOff: "max-tokens" as const } : {}) } };
    },
  };
  return { engine, state };
}

function evaluationWith(engine: Engine) {
  const engineStore = createStore<EngineState>()(() => ({ cpuEngine: engine, cpuTemplate: chatTemplateForModel("SmolLM2-135M-Instruct-q0f32-MLC") ?? null, loadedModelId: null }) as unknown as EngineState);
  const evaluation = createEvaluation(engineStore);
  // Three simple_python questions as an imported suite (no fetch), one protocol, in the page.
  const questions = bfclFile("simple_python.questions.jsonl").split("\n").slice(0, 3).join("\n");
  const answers = bfclFile("simple_python.answers.jsonl").split("\n").slice(0, 3).join("\n");
  evaluation.setImportedSuite({ questionsName: "q.jsonl", questions, answersName: "a.jsonl", answers });
  evaluation.setConfig({ engine: "cpu", protocols: ["hermes"], constrained: [false], perCategory: 3, maxTokens: 48 });
  return evaluation;
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe("the page's evaluation runner", () => {
  it("streams the running case, times cases by the engine's own rates, says a cut-off is one, and Stop ends the run at once keeping finished cases", async () => {
    const right = '<tool_call>\n{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}\n</tool_call>';
    const { engine, state } = scriptedEngine([
      { chunks: [right] },
      { chunks: ["I will ", "write on"], finish: "length" },
      { chunks: ["Thinking ", "about it"], hold: true },
    ]);
    const evaluation = evaluationWith(engine);
    const { store } = evaluation;
    const running = evaluation.startEval();
    await until(() => store.getState().results.length === 2, "two finished cases");
    const [first, second] = store.getState().results;
    expect(first).toMatchObject({ id: "simple_python_0", pass: true, strictPass: true });
    // Cut at the budget: it ran, and was cut.
    expect(second).toMatchObject({ id: "simple_python_1", pass: false, reason: "cut off at max tokens (48)" });
    expect(store.getState().lastFinished?.result.id).toBe("simple_python_1");
    expect(store.getState().lastFinished?.decision).toBeTruthy();

    // The third case streams and is held open: its reply so far is in the view's state.
    await until(() => store.getState().live?.output === "Thinking about it", "the running case's output");
    expect(store.getState().live).toMatchObject({ id: "simple_python_2", protocol: "hermes", outputChars: 17 });

    // Figures from the engine's timings: 20 + 48 reply tokens at 5 tokens/s, 300 prompt tokens at 15.
    const session = store.getState().session!;
    expect(session.figures).toHaveLength(2);
    const figures = progressFigures(session.figures, 1, session.concurrency);
    expect(figures.decodeTokensPerSecond).toBeCloseTo(5, 6);
    expect(figures.prefillTokensPerSecond).toBeCloseTo(15, 6);
    expect(figures.prefillSecondsLeft).toBeCloseTo(20, 6);
    expect(figures.decodeSecondsLeft).toBeCloseTo((20 + 48) / 2 / 5, 6);

    // Stop: at once, before the engine has even given the case back.
    evaluation.stopEval();
    expect(store.getState().status).toBe("stopped");
    expect(store.getState().live).toBeNull();
    expect(store.getState().results.map((r) => r.id)).toEqual(["simple_python_0", "simple_python_1"]);
    await running;
    expect(state.aborted).toBe(1);
    expect(store.getState().results).toHaveLength(2);
    expect(store.getState().run?.status).toBe("stopped");

    // Resume runs only the case that did not finish.
    state.release = () => {};
    const resumed = evaluation.resumeEval();
    await until(() => state.started === 4, "the resumed case to start");
    state.release();
    await resumed;
    expect(store.getState().status).toBe("done");
    expect(store.getState().results.map((r) => r.id)).toEqual(["simple_python_0", "simple_python_1", "simple_python_2"]);
  });
});
