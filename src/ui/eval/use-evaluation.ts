// How the Evaluate view reaches the page's evaluation: made on first use (this code loads on
// demand) and kept in the page's stores, so a run outlives the view that started it.
import { useStore } from "zustand";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { createEvaluation, type EvalState, type Evaluation } from "../../store/eval-store.ts";

export function useEvaluation(): Evaluation {
  const { onDemand, engines } = useLabStores();
  return (onDemand.evaluation ??= createEvaluation(engines.store));
}

export function useEvalState<T>(selector: (state: EvalState) => T): T {
  return useStore(useEvaluation().store, selector);
}
