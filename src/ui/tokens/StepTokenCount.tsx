// The step header's token figures: the engine's usage, or (an engine that reports none, such as
// the replay) the lab tokenizer's count of the prompt and output once token counts are on.
import { memo } from "react";
import type { StepView } from "../debugger/build-steps.ts";
import { formatTokens } from "../debugger/format.ts";
import { useTokenization } from "./use-tokenization.ts";

export const StepTokenCount = memo(function StepTokenCount({ step, controlTokens }: { step: StepView; controlTokens: readonly string[] }) {
  const reported = step.usage.promptTokens !== undefined || step.usage.completionTokens !== undefined;
  // The same texts and tokenizer as the prompt's counts and the token views: one tokenization, cached.
  const prompt = useTokenization(reported || step.request ? null : step.prompt, step.template, controlTokens);
  const output = useTokenization(reported || step.status === "running" ? null : step.rawOutput, step.template, controlTokens);
  const lab = {
    ...(prompt.state === "ready" ? { promptTokens: prompt.result.ids.length } : {}),
    ...(output.state === "ready" ? { completionTokens: output.result.ids.length } : {}),
  };
  const source = prompt.state === "ready" ? prompt.label : output.state === "ready" ? output.label : null;
  return (
    <span data-testid="step-tokens" title={source && !reported ? `Counted by ${source}; the engine reported no usage` : undefined}>
      {formatTokens(step.usage, lab)}
    </span>
  );
});
