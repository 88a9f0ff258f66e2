// Runs the experiments that write to the log — a re-run of a step (a branch), going on from a
// branch, discarding one — the way a turn runs: the conversation is claimed (one tab writes at a
// time), every event is appended to its log, and the log is saved at the end. While one runs,
// the lab counts as running, so no turn starts beside it.
import { createStore, type StoreApi } from "zustand/vanilla";
// The branch runner (the loop's step machinery) loads with the first re-run or continuation, not with the page.
import type { BranchRequest, BranchResult, BranchToContinue } from "../experiments/branch-run.ts";
import { chatmlTemplate } from "toolcall-middleware/templates/chatml.ts";
import type { ChatMessage, ChatTemplate, Engine, LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversations } from "./conversation-store.ts";
import type { Engines, EngineState } from "./engine-store.ts";
import { generationFor } from "./generation-settings.ts";
import { alignReplayPosition, type RunController, type RunStore } from "./run-controller.ts";

/** Why a branch cannot be continued on a replay whose recording is over. */
export const REPLAY_CANNOT_CONTINUE =
  "The recording is over: a replay plays only the replies it recorded, in order, and has none left to answer this branch, so nothing ran. To go on, continue on a real model or a server (Model pane), or replay a longer transcript.";

export interface BranchRunState {
  /** What runs now ("re-run", "continue"), or null. */
  busy: string | null;
  /** Why the last experiment could not run, or how it ended badly. */
  notice: string | null;
}

export type BranchStore = StoreApi<BranchRunState>;

export function createBranchStore(): BranchStore {
  return createStore<BranchRunState>()(() => ({ busy: null, notice: null }));
}

/** The engine a re-run would use now (given the engine store's state), and its template; or why there is none. */
export function currentEngine(runController: RunController, state: Pick<EngineState, "kind">): { engine: Engine; template: ChatTemplate; replay: boolean } | { error: string } {
  const env = runController.currentRunEnvironment();
  if (!env) return { error: "The lab is still starting; try again in a moment." };
  const resolved = env.resolveEngine();
  if ("error" in resolved) return { error: resolved.error };
  return { engine: resolved.engine, template: resolved.template ?? chatmlTemplate, replay: state.kind === "replay" };
}

/** The experiments that write to the log, run against the page's branch store. */
export interface BranchController {
  rerunStep: (request: BranchRequest, given: string | null) => Promise<BranchResult | { error: string }>;
  continueFromBranch: (branch: BranchToContinue) => Promise<string | { error: string }>;
  discardBranch: (runId: string, messages: ChatMessage[]) => Promise<true | { error: string }>;
  stopBranch: () => void;
  /** Stops the experiment under way, if any, and waits until its end is in the log (before the engine under it goes). */
  stopBranchAndWait: () => Promise<void>;
}

export function createBranchController(stores: { branch: BranchStore; run: RunStore; runController: RunController; engines: Engines; conversations: Conversations }): BranchController {
  const branchStore = stores.branch;
  const { runController, conversations } = stores;
  const { conversationActions, saveActive } = conversations;
  /** The experiment under way, for Stop. */
  let controller: AbortController | null = null;
  /** Settles when the experiment under way has ended and its log is saved. */
  let finishing: Promise<void> | null = null;

  async function writing<T>(what: string, work: (append: (event: LoopEvent) => void, signal: AbortSignal) => Promise<T>): Promise<T | { error: string }> {
    const conversation = conversations.store.getState().active;
    if (!conversation) return { error: "No conversation is open." };
    if (stores.run.getState().running || branchStore.getState().busy) return { error: "A turn or another experiment is running; wait for it to end." };
    const claim = await conversationActions.claimForTurn(conversation.id);
    if ("refused" in claim) {
      branchStore.setState({ notice: claim.refused });
      return { error: claim.refused };
    }
    const abort = new AbortController();
    controller = abort;
    let ended: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (ended = resolve));
    finishing = finished;
    branchStore.setState({ busy: what, notice: null });
    stores.run.setState({ running: true });
    try {
      return await work((event) => {
        // Marks the run as this page's, so its step streaming now is not taken for one a reload interrupted.
        if (event.type === "run-start" && !event.parent) conversationActions.setLiveRun(event.runId);
        conversationActions.appendEvent(conversation.id, event);
      }, abort.signal);
    } catch (error) {
      const message = `The ${what} failed: ${error instanceof Error ? error.message : String(error)}`;
      branchStore.setState({ notice: message });
      return { error: message };
    } finally {
      conversationActions.flush();
      conversationActions.setLiveRun(null);
      if (controller === abort) controller = null;
      branchStore.setState({ busy: null });
      stores.run.setState({ running: false });
      await saveActive();
      claim.release();
      if (finishing === finished) finishing = null;
      ended();
    }
  }

  /** Re-runs a step as a branch: on the engine, or (replay) with the given output. */
  function rerunStep(request: BranchRequest, given: string | null): Promise<BranchResult | { error: string }> {
    const now = currentEngine(runController, stores.engines.store.getState());
    if ("error" in now) return Promise.resolve({ error: `No engine to re-run on: ${now.error}` });
    return writing("re-run", async (append, signal) => {
      const { runBranch } = await import("../experiments/branch-run.ts");
      const branch = runBranch(request, given !== null ? { output: given } : { engine: now.engine }, signal);
      for (;;) {
        const next = await branch.next();
        if (next.done) return next.value;
        append(next.value);
      }
    });
  }

  /** Goes on from a branch: its calls run and the loop continues, on the current engine. */
  function continueFromBranch(branch: BranchToContinue): Promise<string | { error: string }> {
    const now = currentEngine(runController, stores.engines.store.getState());
    if ("error" in now) return Promise.resolve({ error: `No engine to continue on: ${now.error}` });
    const env = runController.currentRunEnvironment()!;
    const conversation = conversations.store.getState().active;
    if (!conversation) return Promise.resolve({ error: "No conversation is open." });
    const { settings } = conversation;
    // A replay gives only the turns it recorded, in order: with none left, a continuation could
    // only end in the engine's error. Say why instead, and what can continue a branch.
    alignReplayPosition(conversations, now.engine, conversation);
    if ((now.engine as Engine & { remaining?: number }).remaining === 0) {
      return Promise.resolve({ error: REPLAY_CANNOT_CONTINUE });
    }
    return writing("continuation", async (append, signal) => {
      // A replay script plays on from where the conversation (not its branches) stopped.
      const latest = conversations.store.getState().active;
      if (latest) alignReplayPosition(conversations, now.engine, latest);
      const { continueBranch } = await import("../experiments/branch-run.ts");
      const run = continueBranch({
        branch,
        tools: env.resolveTools(settings),
        engine: now.engine,
        template: now.template,
        generation: generationFor(settings, env.samplingDefaults()),
        maxSteps: Math.max(0, settings.maxSteps - 1),
        ...(settings.systemPrompt.trim() ? { systemPrompt: settings.systemPrompt } : {}),
        signal,
      });
      for (;;) {
        const next = await run.next();
        if (next.done) return next.value;
        append(next.value);
      }
    });
  }

  /** Discards an open branch: its events stay in the log, marked, and leave the timeline. */
  function discardBranch(runId: string, messages: ChatMessage[]): Promise<true | { error: string }> {
    return writing("discard", async (append) => {
      const { discardBranchEvent } = await import("../experiments/branch-run.ts");
      append(discardBranchEvent(runId, messages));
      return true as const;
    });
  }

  /** Stops a re-run or a continuation under way. */
  function stopBranch(): void {
    controller?.abort();
  }

  async function stopBranchAndWait(): Promise<void> {
    const running = finishing;
    stopBranch();
    if (running) await running;
  }

  return { rerunStep, continueFromBranch, discardBranch, stopBranch, stopBranchAndWait };
}
