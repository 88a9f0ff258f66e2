// A failure of llama.cpp in the page, in words. wllama reports three kinds:
// - the model was unloaded while a request waited ("model_not_loaded"): expected after Unload;
// - an exception inside one call into the runtime (llama.cpp threw, wllama caught it and answered
//   nothing): the worker then reads a reply length from its own request buffer, whose first four
//   bytes are the request's magic "GLUE", and fails with "Invalid typed array length: 1163217991".
//   The runtime itself is intact: the next request works;
// - the runtime aborted (an assertion, out of memory): every later call fails until it is loaded again.

/** "GLUE", the glue format's magic, read as a little-endian uint32: what a reply length is when no reply was written. */
export const GLUE_MAGIC_AS_LENGTH = 0x45554c47;

export type RuntimeFailureKind = "unloaded" | "call-failed" | "crashed" | "other";

export interface RuntimeFailure {
  kind: RuntimeFailureKind;
  /** One sentence for the step and the chat. */
  message: string;
  /** Whether the model must be loaded again before it can answer. */
  needsReload: boolean;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function describeRuntimeFailure(error: unknown, recentLog: readonly string[] = []): RuntimeFailure {
  const message = messageOf(error);
  const said = recentLog.length > 0 ? ` llama.cpp said: ${recentLog.slice(-3).join(" | ")}` : "";
  if ((error as { type?: string } | null)?.type === "model_not_loaded" || /model was unloaded/i.test(message)) {
    return { kind: "unloaded", message: "The model was unloaded while this reply was being written; what streamed until then is kept.", needsReload: true };
  }
  if (message.includes(String(GLUE_MAGIC_AS_LENGTH))) {
    return {
      kind: "call-failed",
      message: `llama.cpp failed inside one call during this reply (an exception in the runtime, which then answered nothing); what streamed until then is kept and the model is still loaded, so the next message can run.${said}`,
      needsReload: false,
    };
  }
  if (/\(ABORT\)|has crashed|RuntimeError|unreachable|out of memory|memory access out of bounds/i.test(message) || (error as { name?: string } | null)?.name === "RuntimeError") {
    return { kind: "crashed", message: `llama.cpp stopped working in this page (${message}); the conversation is kept. Reload the model to go on.${said}`, needsReload: true };
  }
  return { kind: "other", message: `llama.cpp in the page failed: ${message}${said}`, needsReload: false };
}
