// A chat template from a file (a GGUF's own Jinja template) renders in a worker: a template that
// loops (`range(300000000)`, a 3,000 × 3,000 loop) or doubles a string holds the worker, never
// the page. Each render has a time budget, watched from the page: past it the worker is
// terminated, whatever the template is doing. The worker's renderer also refuses past the size
// and range bounds (jinja-budget.ts), and the worker is then stopped too. A refusal is a
// PromptRenderRefused naming the bound: the run ends saying so and nothing is sent.
//
// The loop and the prompt views render synchronously (renderPrompt), so `render` answers from
// what the worker has made; a text not made yet is asked of the worker and RenderPending thrown,
// and the caller settles (settleRender) and renders again. One render runs at a time.
import { PromptRenderRefused } from "toolcall-middleware/templates/render-refused.ts";
import { RenderPending } from "toolcall-middleware/templates/render-pending.ts";
import { TEMPLATE_RENDER_BUDGET, type RenderBudget } from "../cpu/jinja-budget.ts";
import { answerTemplateRequest, type TemplateRenderAnswer, type TemplateRenderRequest, type TemplateRenderSide } from "./template-render-protocol.ts";

/**
 * A render in a worker costs the page nothing while it runs, so its time budget is longer than
 * the page-thread one (150 ms): an ordinary chat template renders in well under 50 ms even on a
 * busy machine; 2 s is what a person waits at most before a hostile one is refused.
 */
export const OFF_THREAD_RENDER_BUDGET: RenderBudget = { ...TEMPLATE_RENDER_BUDGET, milliseconds: 2_000 };

/** How long a worker may take to start and parse the template (module load on a busy machine). */
export const OPEN_TIMEOUT_MS = 60_000;

/** Past the worker's own time check, how long the page waits before terminating it (a template stuck inside one built-in call). */
export const HARD_STOP_GRACE_MS = 500;

/** Renders kept: a prompt needs up to four (the tool section's two, the prompt, the next message's), a few callers at once. */
const KEPT_RENDERS = 16;
/** Characters kept across those renders (keys and texts). */
const KEPT_CHARS = 12_000_000;

/** The page's end of one worker. */
export interface TemplateRenderPort {
  post(request: TemplateRenderRequest): void;
  terminate(): void;
}

/** Starts a worker: its answers go to `onAnswer`, its crash to `onFailure`. */
export type SpawnTemplateRenderer = (onAnswer: (answer: TemplateRenderAnswer) => void, onFailure: (message: string) => void) => TemplateRenderPort;

export const spawnRenderWorker: SpawnTemplateRenderer = (onAnswer, onFailure) => {
  const worker = new Worker(new URL("./template-render.worker.ts", import.meta.url), { type: "module", name: "chat template" });
  worker.onmessage = (event: MessageEvent<TemplateRenderAnswer>) => onAnswer(event.data);
  worker.onerror = (event) => onFailure(event.message || "script error");
  worker.onmessageerror = () => onFailure("it sent a message the page could not read");
  return { post: (request) => worker.postMessage(request), terminate: () => worker.terminate() };
};

/** Without workers (Node, tests): the same answers, on this thread, one task later. */
export const spawnInProcess: SpawnTemplateRenderer = (onAnswer) => {
  const side: TemplateRenderSide = {};
  let stopped = false;
  return {
    post: (request) =>
      setTimeout(() => {
        if (!stopped) onAnswer(answerTemplateRequest(side, request));
      }, 0),
    terminate: () => {
      stopped = true;
    },
  };
};

type Outcome = { ok: true; text: string } | { ok: false; error: Error };

interface OpenWorker {
  port: TemplateRenderPort;
  /** Where the next answer goes (one request at a time). */
  answer: ((answer: TemplateRenderAnswer | { type: "crashed"; message: string }) => void) | null;
}

export interface OffThreadTemplateOptions {
  budget?: RenderBudget;
  spawn?: SpawnTemplateRenderer;
}

export class OffThreadTemplate {
  private worker: OpenWorker | null = null;
  private readonly made = new Map<string, Outcome>();
  private readonly asked = new Map<string, Promise<void>>();
  private queue: Promise<void> = Promise.resolve();
  private nextId = 1;
  private disposed = false;

  private constructor(
    private readonly source: string,
    /** Names the template in a refusal ("The chat template embedded in X"). */
    readonly what: string,
    readonly budget: RenderBudget,
    private readonly spawn: SpawnTemplateRenderer,
  ) {}

  /** Opens `source` in a worker; throws (the parser's words) where it is not valid Jinja. */
  static async open(source: string, what: string, options: OffThreadTemplateOptions = {}): Promise<OffThreadTemplate> {
    const spawn = options.spawn ?? (typeof Worker === "undefined" ? spawnInProcess : spawnRenderWorker);
    const template = new OffThreadTemplate(source, what, options.budget ?? OFF_THREAD_RENDER_BUDGET, spawn);
    await template.openWorker();
    return template;
  }

  /** The text for `variables` if the worker has made it; else asks for it and throws RenderPending. Throws the refusal or failure it ended with. */
  render(variables: Record<string, unknown>): string {
    const key = JSON.stringify(variables);
    const outcome = this.made.get(key);
    if (outcome) {
      if (outcome.ok) return outcome.text;
      // A refusal is told once: asked again later (a busier moment, a new message), it renders again.
      this.made.delete(key);
      throw outcome.error;
    }
    let ready = this.asked.get(key);
    if (!ready) {
      ready = this.enqueue(key, variables);
      this.asked.set(key, ready);
    }
    throw new RenderPending(ready);
  }

  /** Stops the worker; renders asked after this fail. */
  dispose(): void {
    this.disposed = true;
    this.stopWorker();
  }

  private enqueue(key: string, variables: Record<string, unknown>): Promise<void> {
    const run = this.queue.then(async () => {
      const outcome = await this.renderInWorker(variables).catch((error: unknown): Outcome => ({ ok: false, error: error instanceof Error ? error : new Error(String(error)) }));
      this.keep(key, outcome);
      this.asked.delete(key);
    });
    this.queue = run;
    return run;
  }

  private keep(key: string, outcome: Outcome): void {
    this.made.set(key, outcome);
    const size = (k: string, o: Outcome) => k.length + (o.ok ? o.text.length : 0);
    let total = 0;
    for (const [k, o] of this.made) total += size(k, o);
    for (const [k, o] of this.made) {
      if (this.made.size <= KEPT_RENDERS && total <= KEPT_CHARS) break;
      if (k === key) continue;
      this.made.delete(k);
      total -= size(k, o);
    }
  }

  private async openWorker(): Promise<OpenWorker> {
    if (this.worker) return this.worker;
    if (this.disposed) throw new Error(`${this.what} is no longer open (the model was unloaded).`);
    const open: OpenWorker = { port: null as unknown as TemplateRenderPort, answer: null };
    open.port = this.spawn(
      (answer) => open.answer?.(answer),
      (message) => {
        if (open.answer) open.answer({ type: "crashed", message });
        else if (this.worker === open) this.stopWorker();
      },
    );
    this.worker = open;
    const answer = await this.ask(open, { type: "open", source: this.source, what: this.what, budget: this.budget }, OPEN_TIMEOUT_MS);
    if (answer.type === "opened") return open;
    this.stopWorker();
    if (answer.type === "open-failed") throw new Error(answer.message);
    if (answer.type === "timeout") throw new Error(`its worker did not start within ${OPEN_TIMEOUT_MS / 1000} s`);
    throw new Error(`its worker failed while opening it (${"message" in answer ? answer.message : answer.type})`);
  }

  private async renderInWorker(variables: Record<string, unknown>): Promise<Outcome> {
    const open = await this.openWorker();
    const id = this.nextId++;
    const ms = this.budget.milliseconds;
    const answer = await this.ask(open, { type: "render", id, variables }, ms + HARD_STOP_GRACE_MS);
    switch (answer.type) {
      case "rendered":
        if (answer.text.length > this.budget.chars) {
          this.stopWorker();
          return { ok: false, error: new PromptRenderRefused(`${this.what} made a text longer than its bound of ${this.budget.chars.toLocaleString("en-US")} characters: its worker was stopped and nothing was sent to the model.`) };
        }
        return { ok: true, text: answer.text };
      case "refused":
        // Past a bound the worker is stopped: whatever it built goes with it.
        this.stopWorker();
        return { ok: false, error: new PromptRenderRefused(answer.message) };
      case "failed":
        return { ok: false, error: new Error(answer.message) };
      case "timeout":
        this.stopWorker();
        return { ok: false, error: new PromptRenderRefused(`${this.what} ran past its time budget of ${ms.toLocaleString("en-US")} ms: its worker was stopped and nothing was sent to the model.`) };
      case "crashed":
        this.stopWorker();
        return { ok: false, error: new Error(`The worker rendering ${this.what.replace(/^The /, "the ")} failed (${answer.message}).`) };
      default:
        this.stopWorker();
        return { ok: false, error: new Error(`The worker rendering ${this.what.replace(/^The /, "the ")} answered out of turn (${answer.type}).`) };
    }
  }

  /** Posts one request and waits for its answer, or for `timeoutMs`. */
  private ask(open: OpenWorker, request: TemplateRenderRequest, timeoutMs: number): Promise<TemplateRenderAnswer | { type: "crashed"; message: string } | { type: "timeout" }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ type: "timeout" }), timeoutMs);
      const finish = (answer: TemplateRenderAnswer | { type: "crashed"; message: string } | { type: "timeout" }) => {
        clearTimeout(timer);
        open.answer = null;
        resolve(answer);
      };
      open.answer = finish;
      try {
        open.port.post(request);
      } catch (error) {
        // Variables that cannot be copied to the worker (never the lab's own: plain data).
        finish({ type: "crashed", message: error instanceof Error ? error.message : String(error) });
      }
    });
  }

  private stopWorker(): void {
    const open = this.worker;
    this.worker = null;
    if (!open) return;
    open.answer = null;
    open.port.terminate();
  }
}
