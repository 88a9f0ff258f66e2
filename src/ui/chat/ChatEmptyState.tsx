// What an empty chat offers. With no model loaded (a first visit), two ways in side by side: a
// recorded demo that needs no download (the replay engine), and downloading the selected model.
// With a transcript ready, the message its recording answers, one click to send.
import { DEFAULT_TRANSCRIPT } from "../../store/engine-store.ts";
import { useMemo } from "react";
import { useConversation, useCpuEngine, useEngineState, useLabStores, useMcpServers, useRunState } from "../../app/lab-stores-context.tsx";
import { offersOnlySmallModelTools, SMALL_MODEL_SUGGESTION, startWithFewTools } from "../../store/small-model-tools.ts";
import { findModel } from "../../engine/webllm/model-catalog.ts";
import { DEFAULT_CPU_MODEL_ID, findCpuModel, formatBytes } from "../../engine/cpu/cpu-models.ts";
import { gpuIsMissingOrSoftware } from "../../engine/webgpu-probe.ts";
import { useLoadCpuModel } from "../model/CpuSection.tsx";
import { EngineErrorBox, LoadProgressBar } from "../model/EngineStatusBox.tsx";

const DEFAULT_HINT = "Your conversation with the model appears here, with each tool call as a card.";

function formatMB(mb: number): string {
  return mb >= 1000 ? `${(mb / 1000).toFixed(1)} GB` : `${mb} MB`;
}

/** The demo's pace: about 60 characters a second, slow enough to watch the call stream and parse. */
export const DEMO_PACE = { chunkChars: 3, delayMs: 50 } as const;

/** Where the person goes on typing after a click that leaves the empty chat (the button is gone). */
const focusChatInput = () => document.getElementById("chat-input")?.focus();


/** One click to a real model without a GPU: SmolLM2 135M on llama.cpp in WebAssembly, with the tools its suggestion needs. */
function CpuOffer() {
  const stores = useLabStores();
  const loadModel = useLoadCpuModel();
  const load = (id: string) => {
    startWithFewTools(stores);
    loadModel(id);
  };
  const model = findCpuModel(DEFAULT_CPU_MODEL_ID);
  return (
    <section className="welcome-option welcome-cpu" data-testid="cpu-offer">
      <h3>Run a real model on your CPU</h3>
      <p className="empty">No GPU is needed: llama.cpp runs in this page (WebAssembly), the tools and the debugger around it.</p>
      <button type="button" className="primary" data-testid="cpu-offer-button" onClick={() => load(DEFAULT_CPU_MODEL_ID)}>
        Run SmolLM2 135M on this computer's CPU (≈ {model ? formatBytes(model.sizeBytes) : "100 MB"})
      </button>
    </section>
  );
}

/** A message to send in one click (the input keeps the focus for the next one). */
function SuggestedMessage({ text }: { text: string }) {
  const { sendMessage } = useLabStores().runController;
  const running = useRunState((s) => s.running);
  return (
    <button
      type="button"
      className="suggestion"
      data-testid="suggested-message"
      disabled={running}
      onClick={() => {
        focusChatInput();
        void sendMessage(text);
      }}
    >
      {text}
    </button>
  );
}

/** The CPU model is loaded: a message to try, and which tools it is offered (and why so few). */
function CpuReady() {
  const stores = useLabStores();
  const label = useCpuEngine((s) => s.loaded?.label);
  const settings = useConversation((s) => s.active?.settings);
  const servers = useMcpServers((s) => s.servers);
  const allNames = useMemo(() => (settings ? stores.tools.allTools(settings, servers).map((t) => t.name) : []), [settings, servers, stores.tools]);
  const fewTools = settings ? offersOnlySmallModelTools(settings.disabledTools, allNames) : false;
  return (
    <div className="chat-empty chat-welcome" data-testid="chat-empty" data-offer="cpu-ready">
      <p className="empty">{label ?? "The model"} runs on this computer's CPU. Try a message its tools can answer:</p>
      <SuggestedMessage text={SMALL_MODEL_SUGGESTION} />
      {fewTools && (
        <p className="empty" data-testid="few-tools-note">
          Only the calculator is offered: a model this small reads every tool's definition before each message (all {allNames.length} tools are ≈ 1,300 tokens, a minute or more on a CPU), and does no better with more to choose from.{" "}
          <button type="button" className="inline-link" data-testid="all-tools-button" onClick={() => stores.conversations.conversationActions.updateSettings({ disabledTools: [] })}>
            Offer all {allNames.length} tools
          </button>
        </p>
      )}
    </div>
  );
}

export function ChatEmptyState() {
  const { engines } = useLabStores();
  const { loadModel, selectEngineKind, selectReplay } = engines;
  const kind = useEngineState((s) => s.kind);
  const gpu = useEngineState((s) => s.gpu);
  const webllmStatus = useEngineState((s) => s.webllmStatus);
  const loadedModelId = useEngineState((s) => s.loadedModelId);
  const selectedModelId = useEngineState((s) => s.selectedModelId);
  const cached = useEngineState((s) => s.cachedModels[s.selectedModelId] === true);
  const replayStatus = useEngineState((s) => s.replayStatus);
  const transcript = useEngineState((s) => s.transcript);
  const { sendMessage } = useLabStores().runController;
  const cpuStatus = useEngineState((s) => s.cpuStatus);
  const offerCpu = gpuIsMissingOrSoftware(gpu);

  if (kind === "cpu" && cpuStatus.state === "loading") {
    return (
      <div className="chat-empty chat-welcome" data-testid="chat-empty" data-offer="cpu-loading">
        <LoadProgressBar status={cpuStatus} />
      </div>
    );
  }

  if (kind === "cpu" && cpuStatus.state === "ready") return <CpuReady />;

  if (kind === "cpu" && cpuStatus.state !== "ready") {
    return (
      <div className="chat-empty chat-welcome" data-testid="chat-empty" data-offer="cpu">
        {cpuStatus.state === "error" && <EngineErrorBox status={cpuStatus} offerReplay={false} />}
        <div className="welcome-options">
          <CpuOffer />
        </div>
      </div>
    );
  }

  /** One click: the recorded demo loads at a watchable pace and its message is sent. */
  const playDemo = async () => {
    await selectReplay(DEFAULT_TRANSCRIPT, DEMO_PACE);
    const ready = engines.store.getState();
    focusChatInput();
    if (ready.replayStatus.state === "ready" && ready.transcript?.suggestedMessage) await sendMessage(ready.transcript.suggestedMessage);
  };

  if (kind === "replay" && replayStatus.state === "ready" && transcript) {
    return (
      <div className="chat-empty chat-welcome" data-testid="chat-empty" data-offer="suggestion">
        <p className="empty">
          Replaying <strong>{transcript.title}</strong>: a recorded model answers, through the real parser and tool loop.
          {transcript.suggestedMessage ? " Its recording answers this message:" : " Send a message to play its next turn."}
        </p>
        {offerCpu && (
          <div className="welcome-options">
            <CpuOffer />
          </div>
        )}
        {transcript.suggestedMessage && (
          <SuggestedMessage text={transcript.suggestedMessage} />
        )}
        {gpu.state !== "unavailable" && (
          <button type="button" data-testid="empty-use-webllm" onClick={() => selectEngineKind("webllm")}>
            Run a real model instead
          </button>
        )}
      </div>
    );
  }

  if (kind === "webllm" && !loadedModelId && webllmStatus.state !== "loading") {
    const model = findModel(selectedModelId);
    const name = model?.displayName ?? selectedModelId;
    return (
      <div className="chat-empty chat-welcome" data-testid="chat-empty" data-offer="first-visit">
        <p className="empty">No model is loaded yet. {offerCpu ? "Ways" : "Two ways"} to start:</p>
        <div className="welcome-options">
          {offerCpu && <CpuOffer />}
          <section className="welcome-option">
            <h3>Watch a recorded demo</h3>
            <p className="empty">A recorded model calls the calculator; the parser, the tool and the debugger run for real. No download, no GPU.</p>
            <button type="button" className="primary" data-testid="try-demo-button" onClick={() => void playDemo()}>
              Try the recorded demo
            </button>
          </section>
          <section className="welcome-option">
            <h3>Run a real model</h3>
            <p className="empty">
              {cached ? `${name} is downloaded: load it onto your GPU.` : `Download ${name}${model ? ` (≈${formatMB(model.downloadMB)}, once)` : ""} and run it on your GPU.`}{" "}
              Other models are in the Model pane.
            </p>
            <button
              type="button"
              data-testid="empty-load-model-button"
              disabled={gpu.state !== "available"}
              onClick={() => void loadModel(selectedModelId)}
            >
              {cached ? "Load" : "Download and load"}
            </button>
            {gpu.state === "unavailable" && (
              <p className="empty" data-testid="empty-load-reason">
                Not in this browser: it needs WebGPU (see the notice above).
              </p>
            )}
          </section>
        </div>
      </div>
    );
  }

  return <p className="empty chat-empty" data-testid="chat-empty">{DEFAULT_HINT}</p>;
}
