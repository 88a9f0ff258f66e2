// A template whose text is made elsewhere (a GGUF's own Jinja template renders in a worker, so a
// hostile one cannot freeze the page) still renders through the one synchronous path the loop
// and the prompt views share (renderPrompt). It does so in two moves: asked for a text it has not
// made yet, it starts making it and throws RenderPending; the caller awaits `ready` and runs the
// same pure computation again, which now finds the text. settleRender does that loop. A
// computation asks for each distinct render once, so it settles after as many rounds as it has
// distinct renders (three for a prompt with a derived tool section).

export class RenderPending extends Error {
  override name = "RenderPending";

  constructor(
    /** Settles (never rejects) once the asked-for text, or the reason it was refused, is known. */
    readonly ready: Promise<void>,
  ) {
    super("The template's text is still being rendered.");
  }
}

/** Rounds before a computation is given up (each round makes one more render ready). */
export const MAX_RENDER_ROUNDS = 32;

/** The value of `compute`, run again each time it asked for a render that was not ready. */
export async function settleRender<T>(compute: () => T, signal?: AbortSignal): Promise<T> {
  for (let round = 0; round < MAX_RENDER_ROUNDS; round += 1) {
    signal?.throwIfAborted();
    try {
      return compute();
    } catch (error) {
      if (!(error instanceof RenderPending)) throw error;
      await untilReadyOrAborted(error.ready, signal);
    }
  }
  throw new Error(`The template's renders did not settle within ${MAX_RENDER_ROUNDS} rounds (each round made one render ready, and the next asked for another).`);
}

/** Rethrows a RenderPending caught by code that otherwise turns a failed render into "none". */
export function rethrowPending(error: unknown): void {
  if (error instanceof RenderPending) throw error;
}

function untilReadyOrAborted(ready: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return ready;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void ready.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
