// Forcing the decision: the step runs again as a branch that keeps its output up to a token and
// then — "Continue with this token" — puts a recorded alternative there, or a text typed there,
// or — at the decision point — the protocol's opening marker ("Force a call here") or a ban on
// the opener's first token ("Force no call here"), and lets the current engine generate on.
// Branches go to the conversation's log (the branch controller), or, inside Evaluate's debugger,
// to the case they came from (a BranchRunner given by the view that shows the case).
import { createContext, useCallback, useContext, useState } from "react";
import { useStore } from "zustand";
import { formatP, quoteToken, type DecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import type { PlacedToken } from "toolcall-middleware/probabilities/step-tokens.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { BranchRef, TokenAlternative, ToolSpec } from "toolcall-middleware/types.ts";
import { useBranchRun, useConversation, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import type { BranchRequest, BranchResult } from "../../experiments/branch-run.ts";
import { openerTokensToBan } from "../../experiments/force-decision.ts";
import type { StepView } from "./build-steps.ts";
import { templateOfRecordedStep } from "../../experiments/recorded-template.ts";

/** Where a debugger's branches run: absent, the conversation's log; Evaluate gives its case's. */
export interface BranchRunner {
  rerun: (request: BranchRequest) => Promise<BranchResult | { error: string }>;
  stop: () => void;
  /** Whether a branch of this runner is running. */
  busy: boolean;
}

export const BranchRunnerContext = createContext<BranchRunner | null>(null);

export interface ForceToken {
  /** Absent where no branch can be forced here, with `note` saying why. */
  onForce?: (token: PlacedToken, alternative: TokenAlternative) => void;
  /** Puts a typed text at a token's place and generates on. */
  onForceText?: (token: PlacedToken, text: string) => void;
  /** At a no-call decision point: opens a call with `marker` there (constrained: the grammar opens it and keeps the call well-formed). */
  onForceCall?: (point: Extract<DecisionPoint, { kind: "no-call" }>, marker: string, constrained: boolean) => void;
  /** At a call's decision point: bans the opener's first token there for one token, then generates on. */
  onForceNoCall?: (point: Extract<DecisionPoint, { kind: "call" }>) => void;
  /** Stops the branch running now. */
  onStop?: () => void;
  note?: string;
  /** What the last force did (or why it failed). */
  message: string | null;
}

/** The words a forced branch is labelled with. */
export function describeForce(token: PlacedToken, alternative: TokenAlternative): string {
  return `forced ${quoteToken(alternative.text)} (p = ${formatP(alternative.p)}) at token ${token.index + 1} in place of ${quoteToken(token.token.text)} (p = ${formatP(token.token.p)})`;
}

export function useForceToken(step: StepView, tools: readonly ToolSpec[]): ForceToken {
  const labBusy = useBranchRun((s) => s.busy);
  const engineKind = useEngineState((s) => s.kind);
  const toolTimeoutMs = useConversation((s) => s.active?.settings.toolTimeoutMs ?? 30_000);
  const { rerunStep, stopBranch } = useLabStores().branchController;
  const local = useContext(BranchRunnerContext);
  const [message, setMessage] = useState<string | null>(null);
  // A registry protocol, or one derived from the loaded model's own template (kept by the lab's derived-protocol store).
  const derived = useStore(useLabStores().derivedProtocols, (state) => state.entries[step.protocol]?.protocol);
  const protocol = getProtocol(step.protocol) ?? derived;
  const busy = local ? local.busy || labBusy !== null : labBusy !== null;

  const run = useCallback(
    (forced: NonNullable<BranchRef["forced"]>, change: string, force: NonNullable<BranchRef["force"]>, extra: Pick<BranchRequest, "banned" | "constrain"> = {}) => {
      if (!protocol) return;
      setMessage("Running the branch…");
      const request: BranchRequest = {
        origin: { runId: step.runId, stepId: step.id },
        protocol,
        tools: [...tools],
        messages: step.messages,
        prompt: step.prompt,
        templateMessages: [...step.templateMessages],
        template: templateOfRecordedStep(step),
        settings: step.settings,
        changes: [change],
        toolTimeoutMs,
        forced,
        force,
        ...extra,
        ...(step.probabilities ? { topProbabilities: step.probabilities.topK } : {}),
      };
      void (local ? local.rerun(request) : rerunStep(request, null)).then((outcome) =>
        setMessage("error" in outcome ? outcome.error : outcome.status === "aborted" ? "The branch was stopped; what it wrote is kept under this step." : "The branch is under this step in the timeline."),
      );
    },
    [local, protocol, rerunStep, step, tools, toolTimeoutMs],
  );

  const onForce = useCallback(
    (token: PlacedToken, alternative: TokenAlternative) => {
      const prefix = step.rawOutput.slice(0, token.start) + alternative.text;
      run({ offset: token.start, token: alternative.text, replaced: token.token.text, prefix }, describeForce(token, alternative), "token");
    },
    [run, step.rawOutput],
  );

  const onForceText = useCallback(
    (token: PlacedToken, text: string) => {
      if (text === "") return;
      const prefix = step.rawOutput.slice(0, token.start) + text;
      run({ offset: token.start, token: text, replaced: token.token.text, prefix }, `forced the text ${quoteToken(text)} at token ${token.index + 1} in place of ${quoteToken(token.token.text)}`, "text");
    },
    [run, step.rawOutput],
  );

  const onForceCall = useCallback(
    (point: Extract<DecisionPoint, { kind: "no-call" }>, marker: string, constrained: boolean) => {
      const at = point.token;
      const before = step.rawOutput.slice(0, at.start);
      const where = `at token ${at.index + 1} in place of ${quoteToken(at.token.text)} (p = ${formatP(at.token.p)})`;
      if (constrained) {
        // A required call opens the output under the protocol's grammar: the marker is written there, then a well-formed call.
        run({ offset: at.start, token: marker, replaced: at.token.text, prefix: before }, `forced a call ${where}: the grammar of a required call writes ${quoteToken(marker)} and a well-formed call`, "call", { constrain: { toolChoice: "required" } });
      } else {
        run({ offset: at.start, token: marker, replaced: at.token.text, prefix: before + marker }, `forced a call: ${quoteToken(marker)} ${where}`, "call");
      }
    },
    [run, step.rawOutput],
  );

  const onForceNoCall = useCallback(
    (point: Extract<DecisionPoint, { kind: "call" }>) => {
      const markers = protocol ? [point.marker, ...openingMarkers(protocol, tools)] : [point.marker];
      const banned = openerTokensToBan(point, markers);
      if (banned.length === 0) {
        setMessage("The engine recorded no token id at the decision point, so there is no token to ban.");
        return;
      }
      const at = point.token;
      run(
        { offset: at.start, token: "", replaced: at.token.text, prefix: step.rawOutput.slice(0, at.start) },
        `forced no call at token ${at.index + 1}: banned ${banned.map((b) => quoteToken(b.text)).join(", ")} there (the opener's first token, p = ${formatP(at.token.p)})`,
        "no-call",
        { banned },
      );
    },
    [protocol, run, step.rawOutput, tools],
  );

  const onStop = local ? local.stop : stopBranch;
  if (step.request) return { note: "A native-mode step has no prompt of ours to continue.", message };
  if (!protocol) return { note: `The protocol ${step.protocol} is not known here.`, message };
  if (engineKind === "replay") return { note: "The replay engine plays recorded text: forcing a token needs a model (the CPU engine or a server).", message };
  if (busy) return { note: "A branch is running.", message, onStop };
  if (step.status === "running") return { note: "The step is still generating.", message };
  return { onForce, onForceText, onForceCall, onForceNoCall, message };
}
