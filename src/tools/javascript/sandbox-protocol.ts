// Messages between the page and the JavaScript sandbox worker.

export interface SandboxRequest {
  code: string;
}

export interface SandboxOutcome {
  /** What the code returned, made JSON-safe; absent when it returned nothing. */
  result?: unknown;
  /** What the code printed with console.*, one entry per call. */
  logs: string[];
  /** Set when the logs were cut to the size limit. */
  logsTruncated?: boolean;
}

export type SandboxResponse =
  | ({ ok: true } & SandboxOutcome)
  | { ok: false; error: { name: string; message: string }; logs: string[]; logsTruncated?: boolean };
