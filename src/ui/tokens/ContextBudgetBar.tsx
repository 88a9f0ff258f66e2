// A step's context budget drawn as a bar: the prompt's tokens and the reply's room (max
// tokens) against the model's context window. The numbers are the engine's, recorded when the
// step started; where the engine could not say, the bar says what is unknown.
import { memo } from "react";
import type { StepView } from "../debugger/build-steps.ts";
import { useTokenization } from "./use-tokenization.ts";
import "./tokens.css";

const n = (value: number) => value.toLocaleString("en-US");
const pct = (value: number, whole: number) => `${Math.max(0, Math.min(100, (value / whole) * 100)).toFixed(2)}%`;

export const ContextBudgetBar = memo(function ContextBudgetBar({ step, controlTokens }: { step: StepView; controlTokens: readonly string[] }) {
  const tokenization = useTokenization(step.request ? null : step.prompt, step.template, controlTokens);
  const labCount = tokenization.state === "ready" ? tokenization.result.ids.length : undefined;
  const budget = step.budget;

  if (!budget || budget.kind === "unknown") {
    const reason = budget?.kind === "unknown" ? budget.reason : "this log did not record the budget";
    const maxTokens = step.settings.maxTokens;
    return (
      <div className="ctx-budget" data-testid="context-budget" data-kind="unknown">
        Context budget unknown: {reason}.
        {labCount !== undefined && ` Prompt ${n(labCount)} tokens (the lab's count)`}
        {maxTokens !== undefined && `${labCount !== undefined ? " +" : " Max tokens"} ${n(maxTokens)}${labCount !== undefined ? " max tokens" : ""}`}
        {labCount !== undefined || maxTokens !== undefined ? "; no context window to compare with." : ""}
      </div>
    );
  }

  const { contextWindow, promptTokens } = budget;
  const reply = budget.kind === "prompt-too-long" ? 0 : budget.maxTokens;
  const used = promptTokens + reply;
  const whole = Math.max(contextWindow, used);
  const over = budget.kind === "prompt-too-long";
  const overflow = Math.max(0, promptTokens - contextWindow);
  return (
    <div className={`ctx-budget${over ? " is-over" : ""}`} data-testid="context-budget" data-kind={budget.kind}>
      <div
        className="ctx-bar"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={contextWindow}
        aria-valuenow={Math.min(used, contextWindow)}
        aria-label={`Context window: prompt ${n(promptTokens)} + max tokens ${n(reply)} of ${n(contextWindow)}`}
      >
        <span className="ctx-prompt" style={{ width: pct(promptTokens - overflow, whole) }} />
        {overflow > 0 && <span className="ctx-over" style={{ width: pct(overflow, whole) }} />}
        <span className="ctx-reply" style={{ width: pct(reply, whole) }} />
      </div>
      <div className="ctx-legend">
        <span>
          <i className="ctx-prompt" style={{ background: "#4a7bd0" }} />
          prompt {n(promptTokens)}
        </span>
        <span>
          <i style={{ background: "#3b9c74" }} />
          max tokens {n(reply)}
          {budget.kind === "capped" && budget.requested !== undefined ? ` (capped from ${n(budget.requested)})` : ""}
        </span>
        <span>
          = {n(used)} of a {n(contextWindow)}-token window ({Math.round((used / contextWindow) * 100)}%)
        </span>
        {over && <span className="tok-mismatch">the prompt alone fills the window: no room for a reply</span>}
        {labCount !== undefined && labCount !== promptTokens && <span className="tok-mismatch">the lab counts {n(labCount)} prompt tokens</span>}
      </div>
    </div>
  );
});
