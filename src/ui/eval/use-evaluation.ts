// How the Evaluate view reaches the page's evaluation: made on first use by the composition root
// (src/app/on-demand-stores.ts; this code loads on demand) and kept in the page's stores, so a
// run outlives the view that started it.
import { useStore } from "zustand";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { evaluationOf } from "../../app/on-demand-stores.ts";
import type { EvalState, Evaluation } from "../../store/eval-store.ts";

export function useEvaluation(): Evaluation {
  return evaluationOf(useLabStores());
}

export function useEvalState<T>(selector: (state: EvalState) => T): T {
  return useStore(useEvaluation().store, selector);
}
