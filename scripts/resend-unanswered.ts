// The eval's fetch: a request that got no answer at all (fetch threw before any response: the
// connection was refused or closed under it) is sent again, up to twice. In the matrix run with two
// llama-servers of 4 slots each, 18 of about 2,200 cases failed so — "fetch failed" 21–134 ms into
// the case, not a token read, often the constrained run right after its free one on the same
// connection — and so said nothing about the model (a kept-alive connection closed by the server
// as it was reused is the likely cause; not established). A request that got a response, even an
// error, is never sent again (the model may have run), nor is an aborted one. Each resend is told
// through `onResend` with the socket's error, so the run's output says it happened.
import { isAbort } from "../src/engine/openai/server-failure.ts";

/** Why fetch threw, as far as Node's fetch says (its `cause` holds the socket's error). */
export function connectionErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error;
  if (cause === undefined) return error.message;
  if (!(cause instanceof Error)) return `${error.message}: ${String(cause)}`;
  const { code } = cause as Error & { code?: string };
  return `${error.message}: ${cause.message}${code ? ` (${code})` : ""}`;
}

/**
 * `fetchImpl`, but a request that got no answer is sent again, at most `resends` times (two: on
 * 28 Nov one case's resend met a closed connection too, and the case failed for it).
 */
export function resendWhenUnanswered(fetchImpl: typeof fetch, onResend: (url: string, why: string) => void, resends = 2): typeof fetch {
  return async (input, init) => {
    for (let sent = 0; ; sent++) {
      try {
        return await fetchImpl(input, init);
      } catch (error) {
        if (sent >= resends || init?.signal?.aborted || isAbort(error)) throw error;
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        onResend(url, connectionErrorText(error));
      }
    }
  };
}
