// A turn that fails before it starts must never leave the lab "running" (every later Send
// would be refused) and must not lose the message: sendMessage resolves false with a notice.
import { beforeEach, describe, expect, it } from "vitest";
import type { Engine, LoopEvent, Protocol } from "toolcall-middleware/types.ts";
import { samplingDefaultsFor } from "toolcall-middleware/families/registry.ts";
import type { ConversationSettings } from "../domain/conversation.ts";
import { createConversations, type Conversations } from "./conversation-store.ts";
import { createTabStatusStore } from "./tab-status.ts";
import { createRunController, createRunStore, type RunController, type RunEnvironment, type RunStore } from "./run-controller.ts";

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

function environment(overrides: Partial<RunEnvironment> = {}): RunEnvironment {
  return {
    runLoop: async function* (options): AsyncGenerator<LoopEvent> {
      yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
      yield { type: "run-end", runId: "r", at: 2, status: "final", messages: options.messages };
    },
    resolveProtocol: async () => protocol,
    resolveEngine: () => ({ engine }),
    resolveTools: () => [],
    protocolName: () => "hermes",
    samplingDefaults: () => samplingDefaultsFor("Qwen3-1.7B-q4f16_1-MLC", true),
    ...overrides,
  };
}

/** Settings that got past every check (the way an unchecked import used to bring them in). */
function forceSettings(patch: Record<string, unknown>): void {
  const active = page.store.getState().active!;
  page.store.setState({ active: { ...active, settings: { ...active.settings, ...patch } as ConversationSettings } });
}

describe("a turn that cannot start", () => {
  it("is refused with a notice and leaves the lab able to send (a system prompt that is not text)", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(environment());
    forceSettings({ systemPrompt: 5 });
    expect(await run.sendMessage("hello")).toBe(false);
    expect(runStore.getState()).toEqual({ running: false, notice: expect.stringMatching(/^The turn could not start: .*trim/) });
    expect(page.store.getState().active!.events).toEqual([]);

    forceSettings({ systemPrompt: "" });
    expect(await run.sendMessage("hello")).toBe(true);
    expect(runStore.getState().running).toBe(false);
  });

  it("resolves false, never rejects, when preparing the tools or the engine throws", async () => {
    await page.conversationActions.init(null);
    run.configureRunEnvironment(
      environment({
        resolveTools: (settings) => {
          if (!Array.isArray(settings.disabledTools)) throw new TypeError("settings.disabledTools.includes is not a function");
          return [];
        },
      }),
    );
    forceSettings({ disabledTools: {} });
    expect(await run.sendMessage("hello")).toBe(false);
    expect(runStore.getState()).toEqual({ running: false, notice: expect.stringContaining("disabledTools.includes is not a function") });

    run.configureRunEnvironment(
      environment({
        resolveEngine: () => {
          throw new Error("engine store broke");
        },
      }),
    );
    await expect(run.sendMessage("hello")).resolves.toBe(false);
    expect(runStore.getState()).toEqual({ running: false, notice: expect.stringContaining("engine store broke") });
  });
});
