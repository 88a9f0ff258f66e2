// An OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp's server): where it is, which of
// its models, and how the lab talks to it — prompt mode (our template, our protocols, raw
// completions) or native mode (the server's template and tool parser).
import { lazy, Suspense, useState } from "react";
import { serverTemplateHasThinkingSwitch, serverTemplateLabels, serverTemplateNames, type ServerTemplateName } from "toolcall-middleware/families/server-template-names.ts";
import { useEngineState, useLabStores, useServerEngine } from "../../app/lab-stores-context.tsx";
import { effectiveTemplate } from "../../store/server-engine.ts";
import { ThinkingNote } from "./ThinkingNote.tsx";
import { EngineErrorBox, StatusLine } from "./EngineStatusBox.tsx";

// Comparing native and prompt mode is offered once a server is ready: its code loads then.
const CompareRuns = lazy(() => import("./CompareRuns.tsx").then((m) => ({ default: m.CompareRuns })));

export function ServerSection() {
  const state = useServerEngine((s) => s);
  const { connectServer, selectServerModel, setServerConnection, setServerMode, setServerTemplate, setServerThinking } = useLabStores().serverEngine;
  const status = useEngineState((s) => s.serverStatus);
  const thinking = useEngineState((s) => s.thinking);
  const [showKey, setShowKey] = useState(false);
  const inferred = effectiveTemplate({ template: "auto", model: state.model });
  const template = effectiveTemplate(state);

  return (
    <div className="model-section" data-testid="server-section">
      <form
        className="server-connect"
        onSubmit={(e) => {
          e.preventDefault();
          void connectServer();
        }}
      >
        <label className="model-field">
          <span>Base URL</span>
          <input type="url" data-testid="openai-base-url" value={state.baseUrl} placeholder="http://localhost:8000/v1" onChange={(e) => setServerConnection({ baseUrl: e.target.value })} />
        </label>
        <label className="model-field">
          <span>API key (optional, kept for this tab only)</span>
          <input
            type={showKey ? "text" : "password"}
            data-testid="openai-api-key"
            value={state.apiKey}
            autoComplete="off"
            onChange={(e) => setServerConnection({ apiKey: e.target.value })}
            onFocus={() => setShowKey(false)}
          />
        </label>
        <button type="submit" data-testid="openai-connect-button" disabled={state.connecting || !state.baseUrl.trim()}>
          {state.connecting ? "Connecting…" : state.models.length > 0 ? "Reconnect" : "Connect"}
        </button>
      </form>
      {state.models.length > 0 && (
        <>
          <label className="model-field">
            <span>Model</span>
            <select data-testid="openai-model-select" value={state.model} onChange={(e) => selectServerModel(e.target.value)}>
              {state.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                  {m.contextWindowSize ? ` · ${m.contextWindowSize.toLocaleString()}-token window` : ""}
                </option>
              ))}
            </select>
          </label>
          <label className="model-field">
            <span>Mode</span>
            <select data-testid="openai-mode" value={state.mode} onChange={(e) => void setServerMode(e.target.value as "prompt" | "native")}>
              <option value="prompt">prompt — the lab's template and protocol, /v1/completions</option>
              <option value="native">native — the server's tool calling, /v1/chat/completions</option>
            </select>
          </label>
          {state.mode === "prompt" && (
            <label className="model-field">
              <span>Chat template</span>
              <select data-testid="openai-template-select" value={state.template} onChange={(e) => setServerTemplate(e.target.value as ServerTemplateName | "auto")}>
                <option value="auto">{inferred ? `From the model's name: ${serverTemplateLabels[inferred]}` : "From the model's name (not recognised: choose one)"}</option>
                {serverTemplateNames.map((name) => (
                  <option key={name} value={name}>
                    {serverTemplateLabels[name]}
                  </option>
                ))}
              </select>
            </label>
          )}
          {state.mode === "prompt" && serverTemplateHasThinkingSwitch(template) && (
            <>
              <label className="model-check">
                <input type="checkbox" data-testid="server-thinking-toggle" checked={thinking} onChange={(e) => setServerThinking(e.target.checked)} />
                Thinking (the model reasons before it answers)
              </label>
              <ThinkingNote />
            </>
          )}
        </>
      )}
      {status.state === "loading" && (
        <p className="engine-status" data-testid="engine-status" data-state="loading">
          Asking for {status.what}…
        </p>
      )}
      {status.state === "error" && <EngineErrorBox status={status} offerReplay={false} />}
      <StatusLine status={status} readyText="Connected." />
      {status.state === "ready" && (
        <Suspense fallback={null}>
          <CompareRuns />
        </Suspense>
      )}
      <p className="model-hint">
        The server must allow this page's origin (CORS) and, for prompt mode, offer /v1/completions. See the README for vLLM, Ollama and llama.cpp flags.
      </p>
    </div>
  );
}
