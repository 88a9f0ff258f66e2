// Messages between the page and the JavaScript sandbox, and the limits both sides enforce.

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
  /** Set when the result was cut to the size limit (it is then a string ending in a note). */
  resultTruncated?: boolean;
}

export type SandboxResponse =
  | ({ ok: true } & SandboxOutcome)
  | { ok: false; error: { name: string; message: string }; logs: string[]; logsTruncated?: boolean };

/**
 * Size limits of what comes back from the sandbox. The worker cuts to them before its reply is
 * copied out (a huge value never crosses), and the frame cuts again in its own realm, which the
 * user's code cannot tamper with.
 */
export const SANDBOX_LIMITS = {
  /** Characters of the returned value, as JSON (a string counts as itself). */
  maxResultChars: 10_000,
  maxLogEntries: 200,
  maxLogChars: 20_000,
  /** Characters of an error's name plus message. */
  maxErrorChars: 4_000,
} as const;

export type SandboxLimits = { [K in keyof typeof SANDBOX_LIMITS]: number };
