// Branches of a log that is not the conversation's — an Evaluate case in its debugger: a forced
// token there runs on the current engine and its events join that case's log on screen, never
// the Lab's conversation. Stop (the debugger's button) and Esc end it on every engine (the
// branch's signal). The branches live as long as the case stays open (they are not saved).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import type { BranchRequest, BranchResult } from "../../experiments/branch-run.ts";
import { currentEngine } from "../../store/branch-controller.ts";
import type { BranchRunner } from "./use-force-token.ts";

export function useCaseBranches(events: LoopEvent[]): { events: LoopEvent[]; runner: BranchRunner } {
  const stores = useLabStores();
  const [added, setAdded] = useState<LoopEvent[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const stop = useCallback(() => abort.current?.abort(), []);

  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        stop();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, stop]);

  // Leaving the case stops its branch.
  useEffect(() => () => abort.current?.abort(), []);

  const rerun = useCallback(
    async (request: BranchRequest): Promise<BranchResult | { error: string }> => {
      if (abort.current) return { error: "A branch of this case is running." };
      if (stores.run.getState().running || stores.branch.getState().busy) return { error: "A turn or an experiment is running in the Lab; wait for it to end." };
      const now = currentEngine(stores.runController, stores.engines.store.getState());
      if ("error" in now) return { error: `No engine to run the branch on: ${now.error}` };
      const controller = new AbortController();
      abort.current = controller;
      setBusy(true);
      // The Lab counts as running meanwhile, so no turn starts on the same engine.
      stores.run.setState({ running: true });
      try {
        const { runBranch } = await import("../../experiments/branch-run.ts");
        const branch = runBranch(request, { engine: now.engine }, controller.signal);
        for (;;) {
          const next = await branch.next();
          if (next.done) return next.value;
          const event = next.value;
          setAdded((list) => [...list, event]);
        }
      } catch (error) {
        return { error: `The branch failed: ${error instanceof Error ? error.message : String(error)}` };
      } finally {
        abort.current = null;
        setBusy(false);
        stores.run.setState({ running: false });
      }
    },
    [stores],
  );

  const all = useMemo(() => (added.length === 0 ? events : [...events, ...added]), [events, added]);
  const runner = useMemo<BranchRunner>(() => ({ rerun, stop, busy }), [rerun, stop, busy]);
  return { events: all, runner };
}
