// Masks the person's secrets (an MCP server's header values, a server engine's API key) in text
// that goes on to the model, the event log, an export or the screen — wherever a server echoes
// them back. Shared by the MCP client and the server engine.

export const MASK = "••••";

/** Secrets shorter than this are not looked for (they would mask ordinary words). */
export const MIN_SECRET_LENGTH = 4;

/** The text with every secret replaced by ••••; `secrets` longest first. */
export function maskText(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && masked.includes(secret)) masked = masked.split(secret).join(MASK);
  return masked;
}

/**
 * Masks a text that arrives in pieces: a secret split across two pieces is still found. Holds
 * back the last (longest secret − 1) characters of what came so far until the next piece or the
 * end; `flush` gives what is held.
 */
export class StreamMasker {
  private held = "";
  private readonly holdBack: number;

  constructor(private readonly secrets: readonly string[]) {
    this.holdBack = Math.max(0, ...secrets.map((secret) => secret.length - 1));
  }

  push(piece: string): string {
    const masked = maskText(this.held + piece, this.secrets);
    const keep = Math.min(this.holdBack, masked.length);
    this.held = masked.slice(masked.length - keep);
    return masked.slice(0, masked.length - keep);
  }

  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }
}
