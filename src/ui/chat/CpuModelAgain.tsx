// A conversation on the CPU engine whose model is not loaded (the page was reloaded, or the model
// unloaded): the chat says so under the conversation and loads the same model again in one click,
// under the protocol the person chose. The conversation is kept as it is; its next message runs
// once the model is ready. (An empty chat has its own offer: ChatEmptyState.)
import { useCpuEngine, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { findCpuModel, formatBytes } from "../../engine/cpu/cpu-models.ts";

export function CpuModelAgain() {
  const { cpuEngine } = useLabStores();
  const kind = useEngineState((s) => s.kind);
  const idle = useEngineState((s) => s.cpuStatus.state === "idle");
  const selected = useCpuEngine((s) => s.selectedModelId);
  const loaded = useCpuEngine((s) => s.loaded);
  const model = findCpuModel(selected);
  if (kind !== "cpu" || !idle || loaded || !model) return null;
  return (
    <section className="chat-notice cpu-model-again" role="status" data-testid="cpu-model-again">
      <span>{model.label} is not loaded in this page. The conversation is kept; its next message runs once the model is loaded.</span>
      <button type="button" className="primary" data-testid="cpu-model-again-button" onClick={() => void cpuEngine.loadCpuModel(selected, { keepProtocol: true })}>
        Load {model.label.replace(/ Instruct.*$/, "")} on the CPU again (≈ {formatBytes(model.sizeBytes)})
      </button>
    </section>
  );
}
