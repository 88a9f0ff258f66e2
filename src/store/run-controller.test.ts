import { beforeEach, describe, expect, it } from "vitest";
import type { Engine, LoopEvent, Protocol } from "toolcall-middleware/types.ts";
import { samplingDefaultsFor } from "toolcall-middleware/families/registry.ts";
import { createConversations, type Conversations } from "./conversation-store.ts";
import { createTabStatusStore } from "./tab-status.ts";
import { deriveChat, type AssistantTurn } from "./derive-chat.ts";
import { ReplayEngine } from "../engine/replay/replay-engine.ts";
import { replayTurnsLeft } from "./replay-progress.ts";
import { createRunController, createRunStore, type RunController, type RunEnvironment, type RunLoopOptions, type RunStore } from "./run-controller.ts";

// Each test has conversations, a run store and a controller of its own, as each page has.
let page: Conversations;
let runStore: RunStore;
let run: RunController;
beforeEach(() => {
  page = createConversations({ tabStatus: createTabStatusStore() });
  runStore = createRunStore();
  run = createRunController({ run: runStore, conversations: page });
});

const engine: Engine = { name: "fake", generate: async function* () {} };
const protocol = { name: "hermes", label: "Hermes" } as Protocol;

function environment(runLoop: (o: RunLoopOptions) => AsyncIterable<LoopEvent>, overrides: Partial<RunEnvironment> = {}): RunEnvironment {
  return {
    runLoop,
    resolveProtocol: async (name) => (name === "hermes" ? protocol : undefined),
    resolveEngine: () => ({ engine }),
    resolveTools: () => [],
    protocolName: () => "hermes",
    samplingDefaults: () => samplingDefaultsFor("Qwen3-1.7B-q4f16_1-MLC", true),
    ...overrides,
  };
}

/** A loop that streams some text and then waits for the signal, like a model mid-answer. */
async function* streamingThenWait(options: RunLoopOptions): AsyncGenerator<LoopEvent> {
  const runId = "run-1";
  yield { type: "run-start", runId, at: 1, protocol: options.protocol.name, messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
  yield { type: "step-start", runId, at: 2, stepId: "s1", index: 0, protocol: "hermes", messages: options.messages, templateMessages: [], prompt: "", template: "chatml", settings: {} };
  yield { type: "parse", runId, at: 3, stepId: "s1", event: { type: "text", text: "Partial answer", span: { start: 0, end: 14 } } };
  await new Promise((resolve) => options.signal!.addEventListener("abort", resolve, { once: true }));
  throw new DOMException("The operation was aborted.", "AbortError");
}

describe("the run controller", () => {
  it("sends every sampling setting explicitly: the conversation's own, else the model family's default", async () => {
    await page.conversationActions.init(null);
    page.conversationActions.updateSettings({ temperature: 0.2, seed: 7 });
    let seen: RunLoopOptions | undefined;
    run.configureRunEnvironment(
      environment(async function* (options) {
        seen = options;
        yield { type: "run-end", runId: "r", at: 2, status: "final", messages: options.messages };
      }),
    );
    await run.sendMessage("hi");
    // Qwen3 with thinking on: 4,096 max tokens, top_p 0.95, no penalties.
    expect(seen?.generation).toEqual({ maxTokens: 4096, temperature: 0.2, topP: 0.95, repetitionPenalty: 1, presencePenalty: 0, frequencyPenalty: 0, seed: 7 });
    page.conversationActions.updateSettings({ seed: null });
    await run.sendMessage("again");
    expect(seen?.generation?.seed).toEqual(expect.any(Number));
  });

  it("with Constrain tool calls on, asks the loop to constrain with the conversation's tool choice (off: not at all)", async () => {
    await page.conversationActions.init(null);
    let seen: RunLoopOptions | undefined;
    run.configureRunEnvironment(
      environment(async function* (options) {
        seen = options;
        yield { type: "run-end", runId: "r", at: 2, status: "final", messages: options.messages };
      }),
    );
    await run.sendMessage("hi");
    expect(seen?.constrain).toBeUndefined();
    page.conversationActions.updateSettings({ constrainToolCalls: true, toolChoice: { name: "calculator" } });
    await run.sendMessage("again");
    expect(seen?.constrain).toEqual({ toolChoice: { name: "calculator" } });
    // A tool choice that is not one (an imported file's) is "auto".
    page.conversationActions.updateSettings({ toolChoice: "sometimes" as never });
    await run.sendMessage("once more");
    expect(seen?.constrain).toEqual({ toolChoice: "auto" });
  });

  it("sends the history plus the new message with the conversation's settings, and logs every event", async () => {
    await page.conversationActions.init(null);
    page.conversationActions.updateSettings({ maxSteps: 3, maxCallsPerStep: 5, temperature: 0.1, systemPrompt: "Be brief." });
    let seen: RunLoopOptions | undefined;
    run.configureRunEnvironment(
      environment(async function* (options) {
        seen = options;
        yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 3, toolTimeoutMs: 1 } };
        yield { type: "run-end", runId: "r", at: 2, status: "final", messages: [...options.messages, { role: "assistant", content: "Hello!" }] };
      }),
    );
    expect(await run.sendMessage("  hi  ")).toBe(true);
    expect(seen).toMatchObject({ protocol, engine, maxSteps: 3, maxCallsPerStep: 5, systemPrompt: "Be brief.", generation: { temperature: 0.1 }, messages: [{ role: "user", content: "hi" }] });
    expect(page.store.getState().active!.events.map((e) => e.type)).toEqual(["run-start", "run-end"]);
    expect(page.store.getState().active!.title).toBe("hi");

    await run.sendMessage("again");
    expect(seen!.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "again" },
    ]);
  });

  it("stops a turn, keeps what was generated and says it was stopped", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(environment(streamingThenWait));
    const turn = run.sendMessage("tell me");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runStore.getState().running).toBe(true);
    expect(page.store.getState().liveRunId).toBe("run-1");
    run.stopRun();
    await turn;
    expect(runStore.getState().running).toBe(false);
    const items = deriveChat(page.store.getState().active!.events);
    const assistant = items[1] as AssistantTurn;
    expect(assistant.status).toBe("aborted");
    expect(assistant.blocks[0]).toMatchObject({ kind: "text", text: "Partial answer" });
  });

  it("puts an error thrown by the loop into the chat, even before the run started", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(
      environment(() => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("Could not download the model: 404")) }),
      })),
    );
    await run.sendMessage("hello");
    const items = deriveChat(page.store.getState().active!.events);
    expect(items[0]).toMatchObject({ kind: "user", content: "hello" });
    expect(items[1]).toMatchObject({ kind: "assistant", status: "engine-error", error: "Could not download the model: 404" });
  });

  it("a message sent while startup is still reading the saved conversation waits for it, then goes", async () => {
    let seen: RunLoopOptions | undefined;
    run.configureRunEnvironment(
      environment(async function* (options) {
        seen = options;
        yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
        yield { type: "run-end", runId: "r", at: 2, status: "final", messages: options.messages };
      }),
    );
    const sent = run.sendMessage("remember this");
    await Promise.resolve();
    expect(runStore.getState().running).toBe(true); // waiting counts as running: a second press does not send twice
    expect(await run.sendMessage("twice")).toBe(false);
    await page.conversationActions.init(null);
    expect(await sent).toBe(true);
    expect(seen!.messages).toEqual([{ role: "user", content: "remember this" }]);
    expect(runStore.getState().notice).toBeNull();
  });

  it("refuses to send without an engine or with an unknown protocol, keeping the log untouched", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(environment(streamingThenWait, { resolveEngine: () => ({ error: "Load a model or choose the replay engine first." }) }));
    expect(await run.sendMessage("hi")).toBe(false);
    expect(runStore.getState().notice).toBe("Load a model or choose the replay engine first.");
    run.configureRunEnvironment(environment(streamingThenWait, { protocolName: () => "nope" }));
    expect(await run.sendMessage("hi")).toBe(false);
    expect(runStore.getState().notice).toMatch(/Unknown protocol "nope"/);
    expect(page.store.getState().active!.events).toEqual([]);
  });

  it("lets a replay engine continue after the generations already in the log, and a newly chosen script start at its first turn", async () => {
    await page.conversationActions.init(null);
    const positions: number[] = [];
    let engineName = "replay: A";
    const replay = () => ({ name: engineName, generate: engine.generate, reset: (position: number) => positions.push(position) });
    run.configureRunEnvironment(
      environment(
        async function* (options) {
          yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 3, toolTimeoutMs: 1 } };
          yield { type: "step-start", runId: "r", at: 2, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "", template: "", settings: {} };
          yield { type: "run-end", runId: "r", at: 3, status: "final", messages: options.messages };
        },
        { resolveEngine: () => ({ engine: replay() }) },
      ),
    );
    await run.sendMessage("one");
    await run.sendMessage("two"); // a fresh engine object with the same script: a reload
    engineName = "replay: B";
    await run.sendMessage("three");
    await run.sendMessage("four");
    expect(positions).toEqual([0, 1, 0, 1]);
  });
});

describe("a replay whose recording is over", () => {
  /** A loop of one step that plays the engine's next turn to its end, as the real loop does. */
  async function* oneStep(options: RunLoopOptions): AsyncGenerator<LoopEvent> {
    yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
    yield { type: "step-start", runId: "r", at: 2, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "", template: "", settings: {} };
    for await (const chunk of options.engine.generate("", {}, options.signal!)) void chunk;
    yield { type: "run-end", runId: "r", at: 3, status: "final", messages: options.messages };
  }

  it("does not start a turn the script has no reply for: the message is refused with the reason, nothing is logged", async () => {
    await page.conversationActions.init(null);
    const script = { title: "One reply", turns: ["Only one answer."] };
    const replay = new ReplayEngine(script, { delayMs: 0 });
    run.configureRunEnvironment(environment(oneStep, { resolveEngine: () => ({ engine: replay }) }));
    expect(replayTurnsLeft(script, page.store.getState().active!)).toBe(1);
    expect(await run.sendMessage("first")).toBe(true);
    expect(replayTurnsLeft(script, page.store.getState().active!)).toBe(0);
    const logged = page.store.getState().active!.events.length;

    expect(await run.sendMessage("second")).toBe(false);
    expect(runStore.getState().notice).toMatch(/The recording "One reply" is over/);
    expect(runStore.getState().running).toBe(false);
    expect(page.store.getState().active!.events).toHaveLength(logged);
  });
});

describe("switching conversations mid-turn", () => {
  it("stopRunAndWait lets the stopped turn close its run in its own conversation first", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(environment(streamingThenWait));
    const first = page.store.getState().active!.id;
    void run.sendMessage("tell me");
    await new Promise((resolve) => setTimeout(resolve, 0));
    await run.stopRunAndWait();
    const events = page.store.getState().active!.events;
    expect(page.store.getState().active!.id).toBe(first);
    expect(events[events.length - 1]).toMatchObject({ type: "run-end", status: "aborted" });
  });
});
