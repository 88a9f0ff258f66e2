// What llama.cpp in the page said last. wllama forwards the runtime's own log lines to a logger;
// the lab keeps the last few warnings and errors (bounded) so that a failure can be told in
// llama.cpp's own words, and drops the rest (the page's console stays quiet). Warnings wllama
// writes after the model was unloaded on purpose ("Failed to cancel request": the request died
// with the worker) are expected and dropped too.

/** At most this many lines, each cut at LINE_CHARS: a runtime that logs in a loop costs nothing. */
const KEPT_LINES = 8;
const LINE_CHARS = 500;

type LogArgs = unknown[];

function lineOf(args: LogArgs): string {
  const text = args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : safeJson(a))).join(" ").trim();
  return text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export class RuntimeLog {
  private readonly lines: string[] = [];
  private unloading = false;

  /** The logger handed to wllama (`new Wllama(paths, { logger })`). */
  readonly logger = {
    debug: () => undefined,
    log: () => undefined,
    warn: (...args: LogArgs) => this.keep(args),
    error: (...args: LogArgs) => this.keep(args),
  };

  /** From now on the worker is being ended on purpose: what fails because of it is not news. */
  markUnloading(): void {
    this.unloading = true;
  }

  /** The last lines llama.cpp or wllama wrote at warning or error level, oldest first. */
  recent(): string[] {
    return [...this.lines];
  }

  private keep(args: LogArgs): void {
    if (this.unloading) return;
    const line = lineOf(args);
    if (line === "") return;
    this.lines.push(line);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
  }
}
