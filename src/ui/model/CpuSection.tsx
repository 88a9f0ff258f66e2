// The CPU engine: a GGUF model on llama.cpp in WebAssembly, no GPU needed. One of the lab's real
import { familyEntryById, recommendedProtocolOf } from "toolcall-middleware/families/family-index.ts";
// models (served by the lab's own server from the per-user cache, or from Hugging Face on a
// person's machine), or any GGUF file opened from disk or dropped on the Model pane.
import { useRef } from "react";
import { useCpuEngine, useEngineState, useLabStores, usePromptCache } from "../../app/lab-stores-context.tsx";
import { promptCacheWords } from "./prompt-cache-words.ts";
import { cpuModels, findCpuModel, formatBytes } from "../../engine/cpu/cpu-models.ts";
import { gpuOffloadOffer } from "../../engine/cpu/gpu-offload.ts";
import type { CpuModelOrigin } from "../../store/cpu-engine-controller.ts";
import { EngineErrorBox, LoadProgressBar, StatusLine } from "./EngineStatusBox.tsx";
import { HiddenFileInput } from "../HiddenFileInput.tsx";

/** Loads a listed CPU model with its family's recommended protocol preselected (the header still lets the person pick another). */
export function useLoadCpuModel(): (id: string) => void {
  const { loadCpuModel } = useLabStores().cpuEngine;
  return (id) => void loadCpuModel(id);
}

export function CpuSection() {
  const { selectCpuModel, setOrigin, setGpuOffload, cancelCpuLoad, unloadCpuModel, openGgufFile } = useLabStores().cpuEngine;
  const gpuOffer = gpuOffloadOffer(useEngineState((s) => s.gpu));
  const gpuOffload = useCpuEngine((s) => s.gpuOffload);
  const load = useLoadCpuModel();
  const status = useEngineState((s) => s.cpuStatus);
  const selected = useCpuEngine((s) => s.selectedModelId);
  const origin = useCpuEngine((s) => s.origin);
  const loaded = useCpuEngine((s) => s.loaded);
  const fileInput = useRef<HTMLInputElement>(null);
  const cache = usePromptCache((s) => s);
  const cacheWords = promptCacheWords(cache);
  const model = findCpuModel(selected);
  const loadingNow = status.state === "loading";

  return (
    <div className="model-section" data-testid="cpu-section">
      <label className="model-field">
        <span>Model</span>
        <select data-testid="cpu-model-select" value={selected} disabled={loadingNow} onChange={(e) => selectCpuModel(e.target.value)}>
          {cpuModels.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} · {formatBytes(m.sizeBytes)}
            </option>
          ))}
        </select>
      </label>
      {model && (
        <dl className="model-facts" data-testid="cpu-model-facts">
          <dt>Download</dt>
          <dd>{formatBytes(model.sizeBytes)}</dd>
          <dt>Licence</dt>
          <dd>{model.license}</dd>
          <dt>Protocol</dt>
          <dd>{recommendedProtocolOf(familyEntryById(model.family)).protocol} (recommended)</dd>
        </dl>
      )}
      <label className="model-field">
        <span>Load from</span>
        <select data-testid="cpu-origin-select" value={origin} disabled={loadingNow} onChange={(e) => setOrigin(e.target.value as CpuModelOrigin)}>
          <option value="lab-server">this lab's server (its model cache: `npm run models`)</option>
          <option value="hugging-face">Hugging Face ({model?.huggingFace?.repo ?? "the model's repository"})</option>
        </select>
      </label>
      <div className="model-buttons">
        {loadingNow ? (
          <button type="button" data-testid="cpu-cancel-button" onClick={cancelCpuLoad}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" data-testid="cpu-load-button" disabled={loaded?.id === selected} onClick={() => load(selected)}>
            {loaded?.id === selected ? "Loaded" : "Load on the CPU"}
          </button>
        )}
        <button type="button" data-testid="cpu-unload-button" disabled={!loaded || loadingNow} onClick={() => void unloadCpuModel()}>
          Unload
        </button>
        <button type="button" data-testid="cpu-open-file-button" disabled={loadingNow} onClick={() => fileInput.current?.click()}>
          Open a GGUF file…
        </button>
        <HiddenFileInput inputRef={fileInput} accept=".gguf" testId="cpu-file-input" onFile={(file) => void openGgufFile(file)} />
      </div>
      <p className="model-hint">Or drop a .gguf file on this pane: any GGUF model runs here, on the CPU.</p>
      {gpuOffer.offer ? (
        <label className="model-check" data-testid="cpu-gpu-offload">
          <input type="checkbox" checked={gpuOffload} disabled={loadingNow} onChange={(e) => setGpuOffload(e.target.checked)} />
          <span>
            Put the model's layers on the GPU ({gpuOffer.adapter}, llama.cpp's WebGPU backend) at the next load{loaded ? ": load again to use it" : ""}
          </span>
        </label>
      ) : (
        gpuOffer.why && (
          <p className="model-hint" data-testid="cpu-gpu-offload-why">
            {gpuOffer.why}
          </p>
        )
      )}
      {status.state === "loading" && <LoadProgressBar status={status} />}
      {status.state === "error" && <EngineErrorBox status={status} offerReplay={false} />}
      <StatusLine status={status} readyText={loaded ? `Ready: ${loaded.label}` : "Ready."} />
      {cacheWords && (
        <p className="model-hint" data-testid="prompt-cache-status" data-state={cache.state} data-tokens={cache.state === "ready" ? cache.tokens : undefined}>
          {cacheWords}
        </p>
      )}
    </div>
  );
}
