// Iterates an async stream but stops as soon as a signal aborts, even when the stream itself is
// stuck waiting for its next item. An engine is asked to stop on abort; this makes sure the
// loop stops too if the engine is slow to notice.

export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  let finished = false;
  try {
    while (true) {
      const next = iterator.next();
      // A stream that fails after we stopped listening must not become an unhandled rejection.
      next.catch(() => undefined);
      const result = await Promise.race([next, aborted]);
      if (result === "aborted") return;
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
      if (signal.aborted) return;
    }
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
    // Tell an unfinished stream to clean up, without waiting for it: it may be mid-await.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
