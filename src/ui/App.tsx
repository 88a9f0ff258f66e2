import { useWebGpuStatus, WebGpuBadge } from "./WebGpuBadge.tsx";

export function App() {
  const gpu = useWebGpuStatus();
  return (
    <div className="app">
      <header className="app-header">
        <h1 className="brand">Toolcall Lab</h1>
        <WebGpuBadge status={gpu} />
      </header>
      {gpu.state === "unavailable" && (
        <div className="notice notice-warn" role="status" data-testid="webgpu-message">
          {gpu.message}
        </div>
      )}
      <main className="panes">
        <section className="pane pane-model" aria-label="Model">
          <h2>Model</h2>
          <p className="empty">Pick a model to load it into this page, or choose the replay engine.</p>
        </section>
        <section className="pane pane-chat" aria-label="Chat">
          <h2>Chat</h2>
          <p className="empty">Your conversation with the model appears here, with each tool call as a card.</p>
        </section>
        <section className="pane pane-debugger" aria-label="Debugger">
          <h2>Debugger</h2>
          <p className="empty">Every loop step appears here: the exact prompt, the raw output and each parse step.</p>
        </section>
      </main>
    </div>
  );
}
