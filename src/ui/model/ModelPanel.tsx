// The Model pane: choose the engine (a WebLLM model, a GGUF on the CPU, a server or the replay engine) and manage it.
import { useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import type { EngineKind } from "../../store/engine-store.ts";
import { CpuSection } from "./CpuSection.tsx";
import { ReplaySection } from "./ReplaySection.tsx";
import { ServerSection } from "./ServerSection.tsx";
import { WebLlmSection } from "./WebLlmSection.tsx";
import "./model.css";

export function ModelPanel() {
  const { selectEngineKind } = useLabStores().engines;
  const { openGgufFile } = useLabStores().cpuEngine;
  const kind = useEngineState((s) => s.kind);
  const gpu = useEngineState((s) => s.gpu);
  return (
    <div
      className="model-panel"
      data-testid="model-panel"
      data-engine={kind}
      // A GGUF dropped on the pane runs on the CPU engine.
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        const file = e.dataTransfer.files[0];
        if (!file) return;
        e.preventDefault();
        void openGgufFile(file);
      }}
    >
      <label className="model-field">
        <span>Engine</span>
        <select data-testid="engine-select" value={kind} onChange={(e) => selectEngineKind(e.target.value as EngineKind)}>
          <option value="webllm">WebLLM model{gpu.state === "unavailable" ? " (needs WebGPU)" : " (your GPU)"}</option>
          <option value="cpu">llama.cpp on this computer's CPU (no GPU)</option>
          <option value="replay">Replay transcript (no GPU)</option>
          <option value="openai">OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp)</option>
        </select>
      </label>
      {kind === "webllm" ? <WebLlmSection /> : kind === "openai" ? <ServerSection /> : kind === "cpu" ? <CpuSection /> : <ReplaySection />}
    </div>
  );
}
