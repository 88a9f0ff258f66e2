// Choosing, loading and managing a WebLLM model.
import { useMemo } from "react";
import { useEngineState, useLabStores, useProtocolChoice } from "../../app/lab-stores-context.tsx";
import { catalog, modelsForAdapter, TOOL_PROMPT_TOKENS, type CatalogModel } from "../../engine/webllm/model-catalog.ts";
import { GPU_WAIT_NOTE } from "../../store/engine-store.ts";
import { familyEntryOfWebLlmModel, recommendedProtocol } from "toolcall-middleware/families/family-index.ts";
import { ThinkingNote } from "./ThinkingNote.tsx";
import { EngineErrorBox, LoadProgressBar, StatusLine } from "./EngineStatusBox.tsx";

function formatMB(mb: number): string {
  return mb >= 1000 ? `${(mb / 1000).toFixed(1)} GB` : `${mb} MB`;
}

export function WebLlmSection() {
  const { cancelLoad, deleteFromCache, ensureCacheStatus, loadModel, selectEngineKind, selectModel, setThinking, unload } = useLabStores().engines;
  const gpu = useEngineState((s) => s.gpu);
  const status = useEngineState((s) => s.webllmStatus);
  const selected = useEngineState((s) => s.selectedModelId);
  const loadedId = useEngineState((s) => s.loadedModelId);
  const cached = useEngineState((s) => s.cachedModels);
  const thinking = useEngineState((s) => s.thinking);
  const waitingForGpu = useEngineState((s) => s.waitingForGpu);
  const setProtocol = useProtocolChoice((s) => s.setProtocol);

  const shaderF16 = gpu.state === "available" ? gpu.shaderF16 : true;
  const models = useMemo(() => modelsForAdapter(shaderF16), [shaderF16]);
  const families = useMemo(() => groupByFamily(models), [models]);
  const model = catalog.find((m) => m.id === selected);
  const loadingNow = status.state === "loading";
  // The model's family says whether its template has the switch (read from the light index, so the
  // switch is there on first paint); a model of no family renders with the replay engine's Qwen3 template, which has it.
  const modelFamily = familyEntryOfWebLlmModel(loadedId ?? selected);
  const supportsThinking = modelFamily ? modelFamily.supportsThinkingToggle === true : true;

  // Without WebGPU the list stays browsable (sizes, families, protocols); loading says why it
  // cannot, in words beside the button. The browser's reason itself is the header's notice: once.
  const noGpu = gpu.state === "unavailable";

  return (
    <div className="model-section">
      <label className="model-field">
        <span>Model</span>
        <select
          data-testid="model-select"
          value={selected}
          disabled={loadingNow}
          onFocus={ensureCacheStatus}
          onPointerDown={ensureCacheStatus}
          onChange={(e) => {
            selectModel(e.target.value);
            // Preselect the model's protocol; the header still lets the person pick another.
            setProtocol(recommendedProtocol(e.target.value).protocol);
          }}
        >
          {!models.some((m) => m.id === selected) && <option value={selected}>{selected}</option>}
          {families.map(([family, list]) => (
            <optgroup key={family} label={family}>
              {list.map((m) => (
                // A model whose window cannot hold the tool prompt is listed, but not offered.
                <option key={m.id} value={m.id} disabled={!m.fitsToolPrompt && m.id !== selected}>
                  {m.displayName} · ≈{formatMB(m.downloadMB)} · {formatMB(m.vramMB)} VRAM{cached[m.id] ? " · cached" : ""}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {model && (
        <dl className="model-facts" data-testid="model-facts">
          <dt>Download</dt>
          <dd>≈{formatMB(model.downloadMB)}{cached[model.id] ? " (cached)" : ""}</dd>
          <dt>GPU memory</dt>
          <dd>{formatMB(model.vramMB)}</dd>
          <dt>Context</dt>
          <dd>{model.contextWindow ? `${model.contextWindow} tokens` : "—"}</dd>
          <dt>Protocol</dt>
          <dd data-testid="recommended-protocol" title={recommendedProtocol(model.id).why}>
            {recommendedProtocol(model.id).protocol} (recommended)
          </dd>
        </dl>
      )}
      {model && !model.fitsToolPrompt && (
        <p className="model-warning" role="status" data-testid="model-too-small">
          Its {model.contextWindow}-token context window cannot hold the tool prompt (up to {TOOL_PROMPT_TOKENS.toLocaleString("en")} tokens with the
          built-in tools) and a reply: the first message would fail. Pick a variant without “-1k”.
        </p>
      )}
      {gpu.state === "available" && !gpu.shaderF16 && <p className="model-hint">This GPU has no shader-f16, so only f32 variants are listed.</p>}
      {supportsThinking && (
        <>
          <label className="model-check">
            <input type="checkbox" data-testid="thinking-toggle" checked={thinking} onChange={(e) => setThinking(e.target.checked)} />
            Thinking (the model reasons before it answers)
          </label>
          <ThinkingNote />
        </>
      )}
      {noGpu && (
        <div className="engine-error" data-testid="no-webgpu-offer" role="status">
          <p className="engine-error-message" data-testid="load-needs-webgpu">
            These models run on WebGPU, which this browser does not offer (see the notice above): they can be browsed, not loaded.
          </p>
          <p className="engine-error-suggestion">The replay engine plays recorded model output through the whole tool loop — no GPU needed.</p>
          <button type="button" className="primary" data-testid="use-replay-button" onClick={() => selectEngineKind("replay")}>
            Use the replay engine
          </button>
        </div>
      )}
      <div className="model-buttons">
        {loadingNow ? (
          <button type="button" data-testid="cancel-load-button" onClick={cancelLoad}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" data-testid="load-model-button" disabled={noGpu || loadedId === selected} onClick={() => void loadModel(selected)}>
            {loadedId === selected ? "Loaded" : cached[selected] ? "Load (cached)" : "Download and load"}
          </button>
        )}
        <button type="button" data-testid="unload-button" disabled={!loadedId || loadingNow} onClick={() => void unload()}>
          Unload
        </button>
        <button type="button" data-testid="delete-cache-button" disabled={!cached[selected] || loadingNow} onClick={() => void deleteFromCache(selected)}>
          Delete from cache
        </button>
      </div>
      {status.state === "loading" && <LoadProgressBar status={status} />}
      {/* Without WebGPU the error is the browser's reason, already the header's notice and said above. */}
      {status.state === "error" && !noGpu && <EngineErrorBox status={status} offerReplay />}
      <StatusLine
        status={status}
        readyText={`Ready: ${catalog.find((m) => m.id === loadedId)?.displayName ?? loadedId ?? ""}${waitingForGpu ? ` — ${GPU_WAIT_NOTE}` : ""}`}
      />
    </div>
  );
}

function groupByFamily(models: CatalogModel[]): Array<[string, CatalogModel[]]> {
  const groups = new Map<string, CatalogModel[]>();
  for (const m of models) groups.set(m.family, [...(groups.get(m.family) ?? []), m]);
  return [...groups];
}
