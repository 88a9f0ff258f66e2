// Native tool calling vs the lab's middleware, on the same question: the same user message, tools
// and settings run once in native mode and once in prompt mode with a chosen protocol. Each run
// is an ordinary turn of its own new conversation (exportable and replayable like any other);
// the compare view reads their event logs side by side.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversations } from "./conversation-store.ts";
import type { ProtocolStore } from "./protocol-store.ts";
import type { RunController, RunStore } from "./run-controller.ts";
import { summarizeRun, type RunSummary } from "./run-summary.ts";
import type { ServerEngine } from "./server-engine.ts";

export interface ComparedRun {
  label: string;
  mode: "native" | "prompt";
  conversationId: string;
  summary: RunSummary | undefined;
  /** The run's event log, for the step-by-step compare. */
  events?: readonly LoopEvent[];
}

export interface CompareState {
  running: boolean;
  /** Which side is running now. */
  current: string | null;
  runs: ComparedRun[];
  error: string | null;
}

export type CompareStore = StoreApi<CompareState>;

export function createCompareStore(): CompareStore {
  return createStore<CompareState>()(() => ({ running: false, current: null, runs: [], error: null }));
}

export async function compareNativeAndPrompt(stores: { protocol: ProtocolStore; compare: CompareStore; run: RunStore; runController: RunController; serverEngine: ServerEngine; conversations: Conversations }, message: string, protocol: string): Promise<void> {
  const text = message.trim();
  if (!text || stores.compare.getState().running || stores.run.getState().running) return;
  const before = { mode: stores.serverEngine.store.getState().mode, protocol: stores.protocol.getState().protocol };
  const settings = stores.conversations.store.getState().active?.settings;
  const sides = [
    { mode: "native" as const, label: "native: the server's tool calling" },
    { mode: "prompt" as const, label: `prompt mode: the lab's ${protocol} protocol` },
  ];
  stores.compare.setState({ running: true, runs: [], error: null });
  try {
    for (const side of sides) {
      stores.compare.setState({ current: side.label });
      await stores.serverEngine.setServerMode(side.mode);
      if (side.mode === "prompt") stores.protocol.getState().setProtocol(protocol);
      const conversation = await stores.conversations.conversationActions.create(settings);
      const sent = await stores.runController.sendMessage(text);
      if (!sent) throw new Error(stores.run.getState().notice ?? "the message could not be sent");
      await stores.conversations.conversationActions.rename(conversation.id, `Compare · ${side.mode === "native" ? "native" : protocol}: ${text.slice(0, 40)}`);
      const events = stores.conversations.store.getState().active?.events ?? [];
      const run: ComparedRun = { label: side.label, mode: side.mode, conversationId: conversation.id, summary: summarizeRun(events), events };
      stores.compare.setState((s) => ({ runs: [...s.runs, run] }));
    }
  } catch (error) {
    stores.compare.setState({ error: `The comparison stopped: ${error instanceof Error ? error.message : String(error)}` });
  } finally {
    await stores.serverEngine.setServerMode(before.mode);
    stores.protocol.getState().setProtocol(before.protocol);
    stores.compare.setState({ running: false, current: null });
  }
}
