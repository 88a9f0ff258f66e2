// The parts of the lab's state whose code loads on demand. createLabStores() cannot make them: it
// runs on the first screen, and importing their modules there would load them with it. They are
// made here on first use instead, from the page's other stores, and kept in LabStores.onDemand,
// so they outlive the view that first asked for them. Only on-demand code imports this module.
import { createEvaluation, type Evaluation } from "../store/eval-store.ts";
import type { LabStores } from "./lab-stores.ts";

/** The page's evaluation, made when Evaluate is first opened (a run goes on when the view closes). */
export function evaluationOf(stores: Pick<LabStores, "onDemand" | "engines">): Evaluation {
  return (stores.onDemand.evaluation ??= createEvaluation(stores.engines.store));
}
