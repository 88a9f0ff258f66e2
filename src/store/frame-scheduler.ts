// Runs a callback once per animation frame at most (or after a short timer where there are no
// frames: tests, hidden tabs), so a burst of streamed events costs one store update.
export function createFrameBatcher(flush: () => void): { schedule: () => void; flushNow: () => void } {
  let cancel: (() => void) | null = null;
  const run = () => {
    cancel = null;
    flush();
  };
  const framesAvailable = () =>
    typeof requestAnimationFrame === "function" && typeof document !== "undefined" && document.visibilityState === "visible";
  return {
    schedule() {
      if (cancel) return;
      if (framesAvailable()) {
        const id = requestAnimationFrame(run);
        cancel = () => cancelAnimationFrame(id);
      } else {
        const id = setTimeout(run, 16);
        cancel = () => clearTimeout(id);
      }
    },
    flushNow() {
      cancel?.();
      run();
    },
  };
}
