// What an empty chat offers. With no model loaded (a first visit), two ways in side by side: a
// recorded demo that needs no download (the replay engine), and downloading the selected model.
// With a transcript ready, the message its recording answers, one click to send.
import { DEFAULT_TRANSCRIPT } from "../../store/engine-store.ts";
import { useEngineState, useLabStores, useRunState } from "../../app/lab-stores-context.tsx";
import { findModel } from "../../engine/webllm/model-catalog.ts";

const DEFAULT_HINT = "Your conversation with the model appears here, with each tool call as a card.";

function formatMB(mb: number): string {
  return mb >= 1000 ? `${(mb / 1000).toFixed(1)} GB` : `${mb} MB`;
}

/** The demo's pace: about 60 characters a second, slow enough to watch the call stream and parse. */
export const DEMO_PACE = { chunkChars: 3, delayMs: 50 } as const;

/** Where the person goes on typing after a click that leaves the empty chat (the button is gone). */
const focusChatInput = () => document.getElementById("chat-input")?.focus();

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
  const running = useRunState((s) => s.running);
  const { sendMessage } = useLabStores().runController;

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
        {transcript.suggestedMessage && (
          <button
            type="button"
            className="suggestion"
            data-testid="suggested-message"
            disabled={running}
            onClick={() => {
              focusChatInput();
              void sendMessage(transcript.suggestedMessage!);
            }}
          >
            {transcript.suggestedMessage}
          </button>
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
        <p className="empty">No model is loaded yet. Two ways to start:</p>
        <div className="welcome-options">
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
