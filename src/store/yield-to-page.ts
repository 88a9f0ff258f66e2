// Long synchronous work (reading a large file, say) cut into slices that give the page a turn
// between them, so input and painting never wait long for it.

interface SchedulerWithYield {
  yield?: () => Promise<void>;
}

/** Resolves in a later task: `scheduler.yield()` where the browser has it, else a 0 ms timer. */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A checkpoint to call between slices of work: it yields once `budgetMs` have passed since the last yield. */
export function createYieldPoint(budgetMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await yieldToPage();
    since = performance.now();
  };
}
