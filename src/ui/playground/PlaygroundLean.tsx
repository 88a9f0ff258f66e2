// The playground's "Which protocol does this model lean to?": a message typed here, the tools
// chosen above, each protocol's prompt rendered with the model's template, and the probability
// that the model opens a call at the first token (the same measurement and table as the
// debugger's). The playground page starts no engine of its own accord: the in-page CPU model
// loads on demand here (llama.cpp in WebAssembly), the only engine that needs no server.
import "../debugger/debugger.css";
import { useCallback, useState } from "react";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { useCpuEngine, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { findCpuModel } from "../../engine/cpu/cpu-models.ts";
import { LeanTable, leanProtocols, useProtocolLean } from "../debugger/ProtocolLeanTable.tsx";

const SAMPLE_MESSAGE = "What is 17 times 23?";

export function PlaygroundLean({ tools, protocol }: { tools: readonly ToolSpec[]; protocol: string | undefined }) {
  const { engines, cpuEngine } = useLabStores();
  const [message, setMessage] = useState(SAMPLE_MESSAGE);
  const lean = useProtocolLean();
  const { measure, setNote } = lean;
  const kind = useEngineState((s) => s.kind);
  const status = useEngineState((s) => s.status);
  const hasEngine = useEngineState((s) => s.engine !== null);
  const modelId = useCpuEngine((s) => s.selectedModelId);
  const model = findCpuModel(modelId);
  const ready = hasEngine && kind === "cpu";

  const start = useCallback(() => {
    const resolved = engines.resolveActiveEngine();
    if ("error" in resolved) {
      setNote(`No engine to ask: ${resolved.error}`);
      return;
    }
    if (message.trim() === "") {
      setNote("Type a message first: the table measures the model's first token after it.");
      return;
    }
    void measure({ engine: resolved.engine, template: resolved.template, messages: [{ role: "user", content: message }], tools: [...tools], protocols: leanProtocols(protocol) });
  }, [engines, measure, message, protocol, setNote, tools]);

  return (
    <details className="pg-lean" data-testid="playground-lean">
      <summary>Which protocol does this model lean to?</summary>
      <p className="pg-muted pg-lean-intro">
        For a message and the tools above: each protocol's prompt, and the probability that the model opens a call at its first token (measured by the model, one short generation per
        protocol's opening marker).
      </p>
      <div className="pg-lean-engine" data-testid="playground-lean-engine" data-ready={String(ready)}>
        {ready ? (
          <span>{status.state === "ready" && "note" in status ? status.note : "A model runs on the CPU."}</span>
        ) : (
          <>
            <button type="button" data-testid="playground-lean-load" disabled={status.state === "loading" && kind === "cpu"} onClick={() => void cpuEngine.loadCpuModel()}>
              Load {model?.label ?? "the model"} on the CPU
            </button>
            <span className="pg-muted" role="status">
              {kind === "cpu" && status.state === "loading"
                ? `Loading: ${status.progress?.text ?? "…"}${status.progress ? ` (${Math.round(status.progress.percent)}%)` : ""}`
                : kind === "cpu" && status.state === "error"
                  ? `${status.message} ${status.suggestion}`
                  : "llama.cpp in WebAssembly, in this page: no server, no GPU."}
            </span>
          </>
        )}
      </div>
      <label className="pg-label" htmlFor="pg-lean-message">
        The person's message
      </label>
      <textarea id="pg-lean-message" className="pg-lean-message" data-testid="playground-lean-message" value={message} onChange={(e) => setMessage(e.target.value)} rows={2} />
      <LeanTable lean={lean} onMeasure={start} disabled={!ready} />
    </details>
  );
}
