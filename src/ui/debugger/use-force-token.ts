// "Continue with this token": the step runs again as a branch that keeps its output up to the
// token, puts the chosen alternative there and lets the current engine generate on.
import { useCallback, useState } from "react";
import { formatP, quoteToken } from "toolcall-middleware/probabilities/decision-point.ts";
import type { PlacedToken } from "toolcall-middleware/probabilities/step-tokens.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { TokenAlternative, ToolSpec } from "toolcall-middleware/types.ts";
import { useBranchRun, useConversation, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import type { StepView } from "./build-steps.ts";

export interface ForceToken {
  /** Absent where no branch can be forced here, with `note` saying why. */
  onForce?: (token: PlacedToken, alternative: TokenAlternative) => void;
  note?: string;
  /** What the last force did (or why it failed). */
  message: string | null;
}

/** The words a forced branch is labelled with. */
export function describeForce(token: PlacedToken, alternative: TokenAlternative): string {
  return `forced ${quoteToken(alternative.text)} (p = ${formatP(alternative.p)}) at token ${token.index + 1} in place of ${quoteToken(token.token.text)} (p = ${formatP(token.token.p)})`;
}

export function useForceToken(step: StepView, tools: readonly ToolSpec[]): ForceToken {
  const busy = useBranchRun((s) => s.busy);
  const engineKind = useEngineState((s) => s.kind);
  const toolTimeoutMs = useConversation((s) => s.active?.settings.toolTimeoutMs ?? 30_000);
  const { rerunStep } = useLabStores().branchController;
  const [message, setMessage] = useState<string | null>(null);
  const protocol = getProtocol(step.protocol);
  const onForce = useCallback(
    (token: PlacedToken, alternative: TokenAlternative) => {
      if (!protocol) return;
      const prefix = step.rawOutput.slice(0, token.start) + alternative.text;
      setMessage("Running the branch…");
      void rerunStep(
        {
          origin: { runId: step.runId, stepId: step.id },
          protocol,
          tools: [...tools],
          messages: step.messages,
          prompt: step.prompt,
          templateMessages: [...step.templateMessages],
          template: { name: step.template, controlTokens: [...(step.controlTokens ?? [])] },
          settings: step.settings,
          changes: [describeForce(token, alternative)],
          toolTimeoutMs,
          forced: { offset: token.start, token: alternative.text, replaced: token.token.text, prefix },
          ...(step.probabilities ? { topProbabilities: step.probabilities.topK } : {}),
        },
        null,
      ).then((outcome) => setMessage("error" in outcome ? outcome.error : "The branch is under this step in the timeline."));
    },
    [protocol, rerunStep, step, tools, toolTimeoutMs],
  );
  if (step.request) return { note: "A native-mode step has no prompt of ours to continue.", message };
  if (!protocol) return { note: `The protocol ${step.protocol} is not known here.`, message };
  if (engineKind === "replay") return { note: "The replay engine plays recorded text: forcing a token needs a model (the CPU engine or a server).", message };
  if (busy !== null) return { note: "An experiment is running.", message };
  if (step.status === "running") return { note: "The step is still generating.", message };
  return { onForce, message };
}
