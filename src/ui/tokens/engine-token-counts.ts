// The counts of a step's prompt the engine itself gave (its tokenizer before sending, its
// usage after), beside the lab's: a difference means the prompt the lab shows is not what the
// engine read.
import type { StepView } from "../debugger/build-steps.ts";

export interface EngineCount {
  source: "budget" | "usage";
  label: string;
  tokens: number;
}

export function engineCountsOf(step: Pick<StepView, "budget" | "usage">): EngineCount[] {
  const counts: EngineCount[] = [];
  if (step.budget && step.budget.kind !== "unknown") counts.push({ source: "budget", label: "the engine's count before sending", tokens: step.budget.promptTokens });
  if (step.usage.promptTokens !== undefined) counts.push({ source: "usage", label: "the engine's reported usage", tokens: step.usage.promptTokens });
  return counts;
}

export function disagreeing(counts: readonly EngineCount[], labCount: number): EngineCount[] {
  return counts.filter((count) => count.tokens !== labCount);
}
