// What the lab knows about a failed connection or call to an MCP server. Small on purpose: the
// page loads it at once, and the code that explains failures loads with the MCP client.

export type FailureKind =
  | "unreachable"
  | "cors"
  | "unauthorized"
  /** OAuth: the person must sign in (again), or signing in failed. */
  | "sign-in"
  | "forbidden"
  | "not-mcp"
  | "protocol-version"
  | "session-id-hidden"
  | "session-lost"
  | "timeout"
  | "server-error"
  | "other";

export interface ExplainedFailure {
  kind: FailureKind;
  /** What happened and what to do, for the person. */
  message: string;
  /** The error as thrown, for the debugger and bug reports. */
  detail: string;
}

/** A failure to connect or call, already explained for the person. */
export class McpFailure extends Error {
  override name = "McpFailure";
  constructor(readonly failure: ExplainedFailure) {
    super(failure.message);
  }
}
