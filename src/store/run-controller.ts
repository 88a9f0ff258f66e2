// Runs a turn: the conversation so far plus the user's message go through the tool loop with
// the protocol, engine, template, tools and settings of the moment; every event lands in the
// conversation's log. Stop aborts it. Whatever happens, the turn ends with a run-end in the log
// (synthesised here when the loop itself fails), so a stopped or failed turn says so and keeps
// what was generated.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { SamplingDefaults } from "toolcall-middleware/families/sampling.ts";
import type { RunToolLoopOptions } from "toolcall-middleware/loop/run-tool-loop.ts";
import type { ChatMessage, ChatTemplate, Engine, ExecutableTool, LoopEvent, Protocol, RunStatus } from "toolcall-middleware/types.ts";
import type { Conversation, ConversationSettings } from "../domain/conversation.ts";
import type { Conversations } from "./conversation-store.ts";
import { countGenerations, deriveHistory } from "./derive-history.ts";
import { generationFor } from "./generation-settings.ts";
import { recordingOverNotice } from "./replay-progress.ts";
import { toolChoiceSchema } from "toolcall-middleware/event-log-schema.ts";

/** What the controller hands the loop: the loop's own options, less ids and nesting. */
export type RunLoopOptions = Pick<
  RunToolLoopOptions,
  "engine" | "protocol" | "tools" | "messages" | "systemPrompt" | "template" | "generation" | "maxSteps" | "toolTimeoutMs" | "maxCallsPerStep" | "signal" | "constrain"
>;

export type RunLoop = (options: RunLoopOptions) => AsyncIterable<LoopEvent>;

export type EngineResolution = { engine: Engine; template?: ChatTemplate } | { error: string };

/** Where the controller gets what a run needs; the app wires the real modules in. */
export interface RunEnvironment {
  runLoop: RunLoop;
  resolveProtocol: (name: string) => Promise<Protocol | undefined>;
  resolveEngine: () => EngineResolution;
  resolveTools: (settings: ConversationSettings) => ExecutableTool[];
  protocolName: () => string;
  /** The model family's sampling values, for the settings the conversation leaves unset. */
  samplingDefaults: () => SamplingDefaults;
}

export interface RunState {
  running: boolean;
  /** Why a message could not be sent (no engine yet, unknown protocol); shown by the input. */
  notice: string | null;
}

export type RunStore = StoreApi<RunState>;

export function createRunStore(): RunStore {
  return createStore<RunState>()(() => ({ running: false, notice: null }));
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Engines that replay a script by position (the replay engine) continue where the log stops. */
/**
 * Engines that replay a script by position (the replay engine) continue where this
 * conversation's log stops — after a reload too. A script chosen mid-conversation starts at
 * its first turn: the conversation remembers at which generation each script took over.
 */
export function alignReplayPosition(conversations: Pick<Conversations, "conversationActions">, engine: Engine, conversation: Conversation): void {
  const candidate = engine as Engine & { reset?: (position: number) => void };
  if (typeof candidate.reset !== "function") return;
  const generations = countGenerations(conversation.events);
  let origin = conversation.replayOrigin;
  if (!origin || origin.engine !== engine.name || origin.generation > generations) {
    origin = { engine: engine.name, generation: generations };
    conversations.conversationActions.setReplayOrigin(origin);
  }
  candidate.reset(generations - origin.generation);
}

/** Closes a run the loop could not close itself, so the log always says how a turn ended. */
function endRun(
  append: (event: LoopEvent) => void,
  runId: string | null,
  input: ChatMessage[],
  messages: ChatMessage[],
  status: RunStatus,
  error: string,
  protocol: string,
  tools: ExecutableTool[],
  settings: ConversationSettings,
): void {
  const at = Date.now();
  const id = runId ?? `run-${at.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  if (runId === null) {
    append({
      type: "run-start",
      runId: id,
      at,
      protocol,
      messages: input,
      tools: tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
      limits: { maxSteps: settings.maxSteps, toolTimeoutMs: settings.toolTimeoutMs, maxCallsPerStep: settings.maxCallsPerStep },
    });
  }
  append({ type: "run-end", runId: id, at, status, error, messages });
}

/** How long a message sent in the page's first moment waits for startup to read the saved conversation. */
const STARTUP_WAIT_MS = 15_000;

/** The page's turns: sends messages through the environment startLab configures, writing to the run store. */
export function createRunController(stores: { run: RunStore; conversations: Conversations }) {
  const runStore = stores.run;
  const { conversations } = stores;
  const { conversationActions, saveActive } = conversations;
  let environment: RunEnvironment | null = null;
  let controller: AbortController | null = null;
  let currentTurn: Promise<boolean> | null = null;

  function configureRunEnvironment(env: RunEnvironment): void {
    environment = env;
  }

  /** The environment turns run in (the context check before sending renders the next prompt with it). */
  function currentRunEnvironment(): RunEnvironment | null {
    return environment;
  }

  /**
   * Sends a user message — or turns given whole (an MCP prompt's messages, each in its role) —
   * and the model answers. Resolves when the turn is over; false when it could not start (the
   * reason is in the notice, and the input keeps the text). Never rejects.
   */
  function sendMessage(text: string | ChatMessage[]): Promise<boolean> {
    const writing: { claim?: { release: () => void } } = {};
    const turn = runTurn(text, writing).catch((error: unknown) => {
      // Only a failure outside the loop gets here (the loop's own end up in the log).
      runStore.setState({ running: false, notice: `The message could not be sent: ${describe(error)}` });
      return false;
    });
    currentTurn = turn;
    void turn.finally(() => {
      // The conversation's write claim goes once the turn's last save is done (or the turn threw).
      writing.claim?.release();
      if (currentTurn === turn) currentTurn = null;
    });
    return turn;
  }

  /**
   * The open conversation; in the page's first moment, once startup has read it (at most
   * STARTUP_WAIT_MS): a message sent while the saved conversation is being read goes once it is.
   */
  function openConversation(): Promise<Conversation | null> {
    const now = conversations.store.getState().active;
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (conversation: Conversation | null) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(conversation);
      };
      const timer = setTimeout(() => done(conversations.store.getState().active), STARTUP_WAIT_MS);
      const unsubscribe = conversations.store.subscribe((state) => {
        if (state.active) done(state.active);
      });
    });
  }

  async function runTurn(text: string | ChatMessage[], writing: { claim?: { release: () => void } }): Promise<boolean> {
    const given = typeof text === "string" ? [{ role: "user" as const, content: text.trim() }] : text;
    const content = given.find((message) => message.role === "user")?.content ?? given[0]?.content ?? "";
    if (!content.trim() || runStore.getState().running) return false;
    const env = environment;
    let conversation = conversations.store.getState().active;
    if (env && !conversation) {
      // Started, but the saved conversation is still being read: the turn waits for it (as running, so a second press does not queue another).
      runStore.setState({ running: true, notice: null });
      conversation = await openConversation();
      runStore.setState({ running: false });
    }
    if (!env || !conversation) {
      runStore.setState({ notice: "The lab is still starting; try again in a moment." });
      return false;
    }
    const resolved = env.resolveEngine();
    if ("error" in resolved) {
      runStore.setState({ notice: resolved.error });
      return false;
    }
    const protocolName = env.protocolName();
    const { settings, id: conversationId } = conversation;

    // One tab writes a conversation at a time, starting from the latest stored log. The turn
    // counts as running (and Stop reaches it) from here on.
    const abort = new AbortController();
    controller = abort;
    runStore.setState({ running: true, notice: null });
    const notStarted = (notice: string | null): false => {
      if (controller === abort) controller = null;
      runStore.setState({ running: false, ...(notice !== null ? { notice } : {}) });
      return false;
    };
    // The protocols' code may load only now (the first turn): the turn counts as running meanwhile.
    let protocol: Protocol | undefined;
    try {
      protocol = await env.resolveProtocol(protocolName);
    } catch (error) {
      return notStarted(`The protocols could not load: ${describe(error)}`);
    }
    if (!protocol) return notStarted(`Unknown protocol "${protocolName}": pick one in the header.`);
    if (abort.signal.aborted) return notStarted(null);
    let claim: Awaited<ReturnType<typeof conversationActions.claimForTurn>>;
    try {
      claim = await conversationActions.claimForTurn(conversationId);
    } catch (error) {
      return notStarted(`The turn could not start: ${describe(error)}`);
    }
    if ("refused" in claim) return notStarted(claim.refused);
    writing.claim = claim;
    if (abort.signal.aborted) return notStarted(null);
    const latest = conversations.store.getState().active;
    if (latest?.id !== conversationId) return notStarted(null);

    // Everything else that can fail before the turn starts fails here, before the loop runs: a
    // turn that cannot start says why, leaves the lab not running and the message in the box.
    let tools: ExecutableTool[];
    let messages: ChatMessage[];
    let options: RunLoopOptions;
    try {
      tools = env.resolveTools(settings);
      messages = [...deriveHistory(latest.events), ...given];
      options = {
        engine: resolved.engine,
        protocol,
        tools,
        messages,
        generation: generationFor(settings, env.samplingDefaults()),
        maxSteps: settings.maxSteps,
        toolTimeoutMs: settings.toolTimeoutMs,
        maxCallsPerStep: settings.maxCallsPerStep,
        signal: abort.signal,
      };
      if (settings.systemPrompt.trim()) options.systemPrompt = settings.systemPrompt;
      // Settings changed since they were checked (or forced in) may hold a tool choice that is not one: "auto".
      if (settings.constrainToolCalls === true) options.constrain = { toolChoice: toolChoiceSchema.safeParse(settings.toolChoice).data ?? "auto" };
      if (resolved.template) options.template = resolved.template;
      alignReplayPosition(conversations, resolved.engine, latest);
    } catch (error) {
      return notStarted(`The turn could not start: ${describe(error)}`);
    }
    // A replay whose script has played every turn has no reply to give: say so (the chat offers
    // what next) rather than run a turn that can only end in the engine's error.
    if ((resolved.engine as Engine & { remaining?: number }).remaining === 0) return notStarted(recordingOverNotice(resolved.engine.name));

    let runId: string | null = null;
    let startStored = false;
    let ended = false;
    let lastMessages: ChatMessage[] = messages;
    const append = (event: LoopEvent) => conversationActions.appendEvent(conversationId, event);

    try {
      conversationActions.titleFromFirstMessage(content);
      for await (const event of env.runLoop(options)) {
        if (!event.parent) {
          if (event.type === "run-start" && runId === null) {
            runId = event.runId;
            conversationActions.setLiveRun(runId);
          }
          if (event.type === "run-end" && event.runId === runId) {
            ended = true;
            lastMessages = event.messages;
          }
          if (event.type === "message" && event.runId === runId) lastMessages = [...lastMessages, event.message];
        }
        append(event);
        // The person's message is in the run's start: stored now rather than at the next throttled
        // save, so a reload or a closed tab right after sending keeps it.
        if (event.type === "run-start" && !event.parent && event.runId === runId && !startStored) {
          startStored = true;
          void saveActive();
        }
      }
    } catch (error) {
      if (!ended) endRun(append, runId, messages, lastMessages, abort.signal.aborted ? "aborted" : "engine-error", describe(error), protocolName, tools, settings);
      ended = true;
    } finally {
      if (!ended) {
        endRun(
          append,
          runId,
          messages,
          lastMessages,
          abort.signal.aborted ? "aborted" : "engine-error",
          abort.signal.aborted ? "Stopped." : "The loop ended without saying how.",
          protocolName,
          tools,
          settings,
        );
      }
      if (controller === abort) controller = null;
      conversationActions.flush();
      conversationActions.setLiveRun(null);
      runStore.setState({ running: false });
      await saveActive();
    }
    return true;
  }

  /** Stops the running turn (the Stop button and Esc). */
  function stopRun(): void {
    controller?.abort();
  }

  /** Stops the running turn and waits until its end is in the log (before switching conversations). */
  async function stopRunAndWait(): Promise<void> {
    const turn = currentTurn;
    stopRun();
    if (turn) await turn.catch(() => undefined);
  }

  function dismissRunNotice(): void {
    runStore.setState({ notice: null });
  }

  /** Ends a turn running now, if any, and waits for its end to be in the log (before the engine under it goes). */
  async function stopRunningTurn(): Promise<void> {
    if (runStore.getState().running) await stopRunAndWait();
  }

  return { configureRunEnvironment, currentRunEnvironment, sendMessage, stopRun, stopRunAndWait, dismissRunNotice, stopRunningTurn };
}

export type RunController = ReturnType<typeof createRunController>;
