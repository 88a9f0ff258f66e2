// Evaluate before anything has run: what each engine needs, and which one works in this browser now.
import { useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { findModel } from "../../engine/webllm/model-catalog.ts";
import type { EvalEngineChoice } from "../../store/eval-store.ts";

export function EvalEmptyState({ onUse, onOpenExamples, onClose }: { onUse: (engine: EvalEngineChoice) => void; onOpenExamples: () => void; onClose?: () => void }) {
  const { realModel } = useLabStores();
  const gpu = useEngineState((s) => s.gpu);
  const loadedModelId = useEngineState((s) => s.loadedModelId);
  const realLabel = useEngineState(realModel.label);
  const realUnavailable = useEngineState(realModel.unavailableReason);
  const cpuModel = useEngineState((s) => s.cpuEngine?.name.replace(/^llama\.cpp \(wasm\) /, "") ?? null);
  const loaded = loadedModelId ? (findModel(loadedModelId)?.displayName ?? loadedModelId) : null;

  return (
    <section className="eval-empty" aria-label="What Evaluate needs" data-testid="eval-empty">
      <div className="eval-empty-head">
        <h3 className="eval-heading">What Evaluate needs</h3>
        {onClose && (
          <button type="button" data-testid="eval-hide-needs" onClick={onClose}>
            Hide
          </button>
        )}
      </div>
      <p className="eval-muted">
        Evaluate asks a model each question of a suite, with every protocol chosen, and scores the tool calls it writes. It needs one of these:
      </p>
      <ul className="eval-engines">
        <li data-testid="eval-needs-webllm" data-works={loaded ? "yes" : "no"}>
          <strong>A model in this page (WebLLM)</strong>: WebGPU and a model loaded in the Lab.{" "}
          {loaded ? (
            <>
              <span className="eval-works">Ready here: {loaded}.</span>{" "}
              <button type="button" data-testid="eval-use-webllm" onClick={() => onUse("webllm")}>
                Use it
              </button>
            </>
          ) : gpu.state === "unavailable" ? (
            <span className="eval-muted">Not in this browser: it has no WebGPU.</span>
          ) : (
            <span className="eval-muted">No model is loaded: load one in the Lab's Model pane.</span>
          )}
        </li>
        {cpuModel && (
          <li data-testid="eval-needs-cpu" data-works="yes">
            <strong>A model in this page on the CPU (llama.cpp in WebAssembly)</strong>: <span className="eval-works">Ready here: {cpuModel}.</span>{" "}
            <button type="button" data-testid="eval-use-cpu" onClick={() => onUse("cpu")}>
              Use it
            </button>
          </li>
        )}
        <li data-testid="eval-needs-real-model">
          <strong>{realLabel}</strong>{" "}
          {realUnavailable ? (
            <span className="eval-muted">{realUnavailable}</span>
          ) : (
            <button
              type="button"
              data-testid="eval-real-model"
              onClick={() => {
                realModel.start();
                // To the Lab, where its Model pane loads it (the view follows the address).
                window.location.hash = "";
              }}
            >
              Set it up in the Lab
            </button>
          )}
        </li>
        <li data-testid="eval-needs-server">
          <strong>An OpenAI-compatible server</strong> (vLLM, SGLang, Ollama, llama.cpp): its address ending in <code>/v1</code> and a model id; the server
          must let this page's origin in (CORS).{" "}
          <button type="button" data-testid="eval-use-server" onClick={() => onUse("server-prompt")}>
            Use a server
          </button>
        </li>
      </ul>
      <p className="eval-muted">
        To see what a finished matrix looks like first:{" "}
        <button type="button" data-testid="eval-open-examples" onClick={onOpenExamples}>
          Open the example results
        </button>{" "}
        (SmolLM2 135M and Gemma 3 270M through llama.cpp's server, on a subset of the built-in suite).
      </p>
    </section>
  );
}
