// The experiments a debugger step offers: read its output as another protocol (Parse as…),
// edit its inputs and run it again as a branch (Edit and re-run), and compare it with another
// step. A bar under the step's header; each opens its own panel.
import "./experiments.css";
import { useMemo, useState } from "react";
import { listProtocols } from "../../middleware/protocols/registry.ts";
import type { ToolSpec } from "../../middleware/types.ts";
import type { StepView } from "../debugger/build-steps.ts";
import { ReparsePanel } from "./ReparsePanel.tsx";

export interface StepExperimentsProps {
  step: StepView;
  /** The tools of the step's run, as recorded. */
  tools: ToolSpec[];
}

export function StepExperiments({ step, tools }: StepExperimentsProps) {
  const protocols = useMemo(() => listProtocols(), []);
  const [reparseAs, setReparseAs] = useState("");
  const [strict, setStrict] = useState(false);
  const nativeStep = step.request !== undefined;
  const finished = step.status !== "running";
  return (
    <div className="xp" data-testid="step-experiments">
      <div className="xp-bar">
        <label className="xp-control" title="Read the recorded raw output again with another protocol, without generating">
          Parse as…{" "}
          <select data-testid="reparse-protocol" value={reparseAs} disabled={!finished} onChange={(e) => setReparseAs(e.target.value)}>
            <option value="">—</option>
            {protocols.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="xp-control" title="No repairs and no lenient readings: a call must be written as the protocol writes calls">
          <input type="checkbox" data-testid="reparse-strict" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> strict
        </label>
        {reparseAs !== "" && (
          <button type="button" onClick={() => setReparseAs("")}>
            Close
          </button>
        )}
      </div>
      {nativeStep && reparseAs !== "" && <p className="dbg-hint">A native step's output is the server's text; its calls came structured, so a re-read sees only the text.</p>}
      {reparseAs !== "" && <ReparsePanel step={step} tools={tools} protocol={reparseAs} strict={strict} />}
    </div>
  );
}
