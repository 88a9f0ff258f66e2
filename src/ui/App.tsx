import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useState } from "react";
import { useConversation, useEngineState, useLabStores, useMcpServers, useTranscriptConsent } from "../app/lab-stores-context.tsx";
import { engineSelectors } from "../store/engine-store.ts";
import { toSpecs } from "../store/tool-catalog.ts";
import { allowForeignTranscript, refuseForeignTranscript } from "../store/transcript-consent.ts";
import { visibleBidi } from "./bidi/VisibleBidi.tsx";
import { PanelBoundary } from "./ErrorBoundary.tsx";
import { ChatPane } from "./chat/ChatPane.tsx";
import { ProtocolSelect } from "./chat/ProtocolSelect.tsx";
import { DebuggerPane } from "./debugger/DebuggerPane.tsx";
import { McpPanel } from "./mcp/McpPanel.tsx";
import { McpRequests } from "./mcp/McpRequests.tsx";
import { ModelPanel } from "./model/ModelPanel.tsx";
import { OtherTabsNotice } from "./OtherTabsNotice.tsx";
import { SessionsPanel } from "./sessions/SessionsPanel.tsx";
import { SettingsPanel } from "./settings/SettingsPanel.tsx";
import { WebGpuBadge } from "./WebGpuBadge.tsx";

const EMPTY_EVENTS: never[] = [];

// The Evaluate view (and the eval code and data it loads) is fetched only when it is opened.
const EvaluateView = lazy(() => import("./eval/EvaluateView.tsx"));

type View = "lab" | "evaluate";
const viewFromHash = (): View => (globalThis.location?.hash === "#evaluate" ? "evaluate" : "lab");

/** Which view is shown, kept in the address (#evaluate) so a reload stays on it. */
function useView(): [View, (view: View) => void] {
  const [view, setView] = useState<View>(viewFromHash);
  useEffect(() => {
    const follow = () => setView(viewFromHash());
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const choose = (next: View) => {
    history.replaceState(null, "", next === "evaluate" ? "#evaluate" : `${location.pathname}${location.search}`);
    setView(next);
  };
  return [view, choose];
}

// The event log changes every frame while a turn streams; only the components that show it
// subscribe to it, so the rest of the page does not re-render with each frame.
function LabDebugger() {
  const { startedOnThisPage } = useLabStores().conversations;
  const events = useConversation((s) => s.active?.events ?? EMPTY_EVENTS);
  const settings = useConversation((s) => s.active?.settings);
  // MCP servers' tools come and go with their connections; thousands of them are rendered as a
  // deferred (interruptible) update, so a server's tool list never holds the page.
  const { enabledTools } = useLabStores().tools;
  const mcpServers = useDeferredValue(useMcpServers((s) => s.servers));
  const offered = useMemo(() => (settings ? toSpecs(enabledTools(settings, mcpServers)) : []), [settings, enabledTools, mcpServers]);
  return <DebuggerPane events={events} tools={offered} startedOnThisPage={startedOnThisPage} />;
}

function LabSettings() {
  const settings = useConversation((s) => s.active?.settings);
  const { allTools } = useLabStores().tools;
  const mcpServers = useDeferredValue(useMcpServers((s) => s.servers));
  const everyTool = useMemo(() => (settings ? toSpecs(allTools(settings, mcpServers)) : []), [settings, allTools, mcpServers]);
  return <SettingsPanel tools={everyTool} />;
}

/** A link asked for a transcript from another site: load it only if the person says so. */
function TranscriptConsent() {
  const { transcriptConsent: consent, engines } = useLabStores();
  const pending = useTranscriptConsent((s) => s.pending);
  if (!pending) return null;
  return (
    <div className="notice notice-warn notice-row" role="alert" data-testid="transcript-consent">
      <span>
        This link asks to replay a transcript from another site: <bdi className="mono">{pending}</bdi>. A transcript decides everything the
        replayed model writes, including the tool calls the lab will run. Load it?
      </span>
      <span className="notice-actions">
        <button type="button" data-testid="transcript-consent-load" onClick={() => allowForeignTranscript(consent, engines)}>
          Load it
        </button>
        <button type="button" data-testid="transcript-consent-refuse" onClick={() => refuseForeignTranscript(consent)}>
          Don't load
        </button>
      </span>
    </div>
  );
}

/** A banner the person reads and closes: an error is an alert, a warning a status. */
function DismissibleNotice({ tone, testId, text, onDismiss }: { tone: "err" | "warn"; testId: string; text: string; onDismiss: () => void }) {
  return (
    <div className={`notice notice-${tone} notice-row`} role={tone === "err" ? "alert" : "status"} data-testid={testId}>
      <span>{text}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

export function App() {
  const { conversationActions } = useLabStores().conversations;
  // The engines' own probe (engine-store.ts): the browser is asked for an adapter once, not twice. The
  // WebGPU notice is for the GPU and replay engines: on the CPU engine or a server it is beside the point.
  const gpu = useEngineState((s) => s.gpu);
  const engineKind = useEngineState((s) => s.kind);
  const title = useConversation((s) => s.active?.title);
  const storageError = useConversation((s) => s.storageError);
  const conversationNotice = useConversation((s) => s.conversationNotice);
  const activeId = useConversation((s) => s.active?.id);
  const engineLabel = useEngineState(engineSelectors.label);
  const engineReady = useEngineState(engineSelectors.ready);
  const [view, setView] = useView();
  // In a narrow window the side column (model, conversations, MCP, settings) is behind a button
  // (narrow.css); in a wide one it is always shown and the button is hidden.
  const [sideOpen, setSideOpen] = useState(false);
  const toggleSide = () => {
    const opening = !sideOpen;
    setSideOpen(opening);
    if (opening) requestAnimationFrame(() => document.getElementById("lab-side")?.scrollIntoView({ block: "start" }));
  };

  return (
    <div className="app">
      <a
        className="skip-link"
        href="#chat-input"
        data-testid="skip-to-chat"
        onClick={(event) => {
          event.preventDefault();
          if (view !== "lab") setView("lab");
          requestAnimationFrame(() => document.getElementById("chat-input")?.focus());
        }}
      >
        Skip to the message box
      </a>
      <header className="app-header">
        <h1 className="brand">Toolcall Lab</h1>
        <nav className="view-switch" aria-label="View">
          <button type="button" data-testid="view-lab" aria-pressed={view === "lab"} onClick={() => setView("lab")}>
            Lab
          </button>
          <button type="button" data-testid="view-evaluate" aria-pressed={view === "evaluate"} onClick={() => setView("evaluate")}>
            Evaluate
          </button>
          {/* A page of its own (no engine, no conversation): try a parser on any text. */}
          <a className="view-link" href="?view=playground" data-testid="view-playground">
            Playground
          </a>
        </nav>
        {/* The protocol applies to the lab's next turn; Evaluate chooses its own protocols. */}
        {view === "lab" && <ProtocolSelect />}
        <span className={`badge ${engineReady ? "badge-engine" : "badge-muted"}`} data-testid="engine-label" title={engineLabel}>
          {engineLabel}
        </span>
        <span className="header-spacer" />
        <WebGpuBadge status={gpu} />
        {view === "lab" && (
          <button type="button" className="side-toggle" data-testid="side-toggle" aria-expanded={sideOpen} aria-controls="lab-side" onClick={toggleSide}>
            {sideOpen ? "Hide model & settings" : "Model & settings"}
          </button>
        )}
      </header>
      {gpu.state === "unavailable" && engineKind !== "cpu" && engineKind !== "openai" && (
        <div className="notice notice-warn" role="status" data-testid="webgpu-message">
          {gpu.message}
        </div>
      )}
      {storageError && <DismissibleNotice tone="err" testId="storage-error" text={storageError} onDismiss={conversationActions.dismissStorageError} />}
      {conversationNotice && (
        <DismissibleNotice tone="warn" testId="conversation-notice" text={conversationNotice} onDismiss={conversationActions.dismissConversationNotice} />
      )}
      <TranscriptConsent />
      <OtherTabsNotice />
      {/* An MCP server's question (elicitation, sampling, a destructive tool) whichever view is shown. */}
      <PanelBoundary name="MCP requests">
        <McpRequests />
      </PanelBoundary>
      {view === "evaluate" && (
        <main className="panes panes-evaluate">
          <section className="pane pane-evaluate" aria-label="Evaluate">
            <PanelBoundary name="Evaluate">
              <Suspense fallback={<p>Loading the Evaluate view…</p>}>
                <EvaluateView />
              </Suspense>
            </PanelBoundary>
          </section>
        </main>
      )}
      {/* Each panel has its own error boundary: one that fails leaves the others usable. */}
      {/* The lab stays mounted (hidden) while Evaluate is shown: a chat under way goes on. */}
      <main className={sideOpen ? "panes side-open" : "panes"} hidden={view !== "lab"}>
        <section className="pane pane-chat" aria-label="Chat">
          <h2 className="pane-title">
            Chat {title && <span className="pane-subtitle" data-testid="conversation-title">{visibleBidi(title)}</span>}
          </h2>
          <PanelBoundary name="Chat" resetKeys={[activeId]}>
            <ChatPane />
          </PanelBoundary>
        </section>
        <section className="pane pane-debugger" aria-label="Debugger">
          <h2>Debugger</h2>
          <PanelBoundary name="Debugger" resetKeys={[activeId]}>
            <LabDebugger />
          </PanelBoundary>
        </section>
        {/* Last in the page's order (placed first on screen by the grid): tabbing reaches the chat
            and its suggestion before the forty fields of the side column. */}
        <div className="pane pane-side" id="lab-side">
          <section className="side-section" aria-label="Model">
            <h2>Model</h2>
            <PanelBoundary name="Model">
              <ModelPanel />
            </PanelBoundary>
          </section>
          <details className="side-section" open>
            <summary>
              <h2>Conversations</h2>
            </summary>
            <PanelBoundary name="Conversations">
              <SessionsPanel />
            </PanelBoundary>
          </details>
          <details className="side-section" open>
            <summary>
              <h2>MCP servers</h2>
            </summary>
            <PanelBoundary name="MCP servers">
              <McpPanel />
            </PanelBoundary>
          </details>
          <details className="side-section" open>
            <summary>
              <h2>Settings</h2>
            </summary>
            <PanelBoundary name="Settings" resetKeys={[activeId]}>
              <LabSettings />
            </PanelBoundary>
          </details>
        </div>
      </main>
    </div>
  );
}
