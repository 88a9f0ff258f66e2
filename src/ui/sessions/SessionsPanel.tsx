// Saved conversations: open, rename, delete, start a new one; export the open one as JSON (its
// event log), make a replay transcript from it, or import an exported file.
import { useRef, useState } from "react";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { useConversation, useLabStores, useRunState } from "../../app/lab-stores-context.tsx";
import { downloadJson, safeFileName } from "./download.ts";
import { HiddenFileInput } from "../HiddenFileInput.tsx";
import "./sessions.css";

function formatWhen(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  return date.toDateString() === today.toDateString()
    ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

// Export, transcripts and import (with the protocols a transcript is written in) load at first use.
const conversationExport = () => import("../../store/conversation-export.ts");
const importFile = () => import("../../store/import-file.ts");

export function SessionsPanel() {
  const { conversationActions, store: conversationStore } = useLabStores().conversations;
  const list = useConversation((s) => s.list);
  const activeId = useConversation((s) => s.active?.id);
  const activeTitle = useConversation((s) => s.active?.title);
  const running = useRunState((s) => s.running);
  const { stopRunAndWait } = useLabStores().runController;
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [importMessage, setImportMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // The open conversation is always listed, even before its first save.
  const shown = activeId && !list.some((m) => m.id === activeId) ? [{ id: activeId, title: activeTitle ?? "", updatedAt: Date.now() }, ...list] : list;

  const switchTo = async (action: () => Promise<unknown>) => {
    // A running turn is stopped and closed in its own conversation before another one opens.
    if (running) await stopRunAndWait();
    await action();
  };

  const commitRename = async (id: string) => {
    setEditing(null);
    await conversationActions.rename(id, draft);
  };

  const exportActive = async () => {
    const conversation = conversationStore.getState().active;
    if (!conversation) return;
    conversationActions.flush();
    const current = conversationStore.getState().active ?? conversation;
    // Written with each long text once, a slice of events at a time (the page keeps its turns).
    try {
      const { exportConversationInSlices } = await conversationExport();
      downloadJson(`${safeFileName(current.title)}.toolcall-lab.json`, await exportConversationInSlices(current));
    } catch (error) {
      setImportMessage({ tone: "error", text: `Could not export "${current.title}": ${error instanceof Error ? error.message : String(error)}` });
    }
  };

  const exportTranscript = async () => {
    conversationActions.flush();
    let transcriptFromEvents: Awaited<ReturnType<typeof conversationExport>>["transcriptFromEvents"];
    try {
      ({ transcriptFromEvents } = await conversationExport());
    } catch (error) {
      setImportMessage({ tone: "error", text: `Could not make a transcript: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    const conversation = conversationStore.getState().active;
    if (!conversation) return;
    const transcript = transcriptFromEvents(conversation.events, conversation.title);
    if (transcript.turns.length === 0) {
      setImportMessage({ tone: "error", text: "This conversation has no model output yet, so there is nothing to replay." });
      return;
    }
    downloadJson(`${safeFileName(conversation.title)}.transcript.json`, transcript);
  };

  const onImport = async (file: File) => {
    try {
      const { importConversationFile } = await importFile();
      const conversation = await importConversationFile(file);
      await switchTo(() => conversationActions.adopt(conversation));
      setImportMessage({ tone: "ok", text: `Imported "${conversation.title}" (${conversation.events.length} events).` });
    } catch (error) {
      setImportMessage({ tone: "error", text: `Could not import ${file.name}: ${error instanceof Error ? error.message : String(error)}` });
    }
  };

  return (
    <div className="sessions" data-testid="sessions-panel">
      <div className="sessions-actions">
        <button type="button" data-testid="new-conversation" onClick={() => void switchTo(() => conversationActions.create())}>
          + New
        </button>
        <button type="button" data-testid="export-json" onClick={() => void exportActive()} title="Download the open conversation's event log as JSON">
          Export
        </button>
        <button type="button" data-testid="import-json" onClick={() => fileInput.current?.click()} title="Open an exported conversation">
          Import
        </button>
        <button type="button" data-testid="export-transcript" onClick={() => void exportTranscript()} title="Download a replay transcript made from this conversation's model outputs">
          Transcript
        </button>
        <HiddenFileInput inputRef={fileInput} accept="application/json,.json" testId="import-file" onFile={(file) => void onImport(file)} />
      </div>
      {importMessage && (
        <div className={`sessions-message ${importMessage.tone === "error" ? "is-error" : ""}`} role={importMessage.tone === "error" ? "alert" : "status"} data-testid="import-message">
          <span>{visibleBidi(importMessage.text)}</span>
          <button type="button" className="link-button" aria-label="Dismiss" onClick={() => setImportMessage(null)}>
            ×
          </button>
        </div>
      )}
      <ul className="session-list" data-testid="session-list">
        {shown.map((meta) => (
          <li key={meta.id} className={meta.id === activeId ? "is-active" : ""} data-testid="session-item" data-active={meta.id === activeId}>
            {editing === meta.id ? (
              <input
                autoFocus
                className="session-rename"
                data-testid="session-rename-input"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                onBlur={() => void commitRename(meta.id)}
                onKeyDown={(event) => {
                  if (event.key === "Enter") void commitRename(meta.id);
                  if (event.key === "Escape") setEditing(null);
                }}
              />
            ) : (
              <button type="button" className="session-open" onClick={() => void switchTo(() => conversationActions.open(meta.id))} title={meta.title}>
                <span className="session-title">{visibleBidi(meta.title)}</span>
                <span className="session-when">{formatWhen(meta.updatedAt)}</span>
              </button>
            )}
            <span className="session-tools">
              <button
                type="button"
                className="icon-button"
                aria-label={`Rename ${meta.title}`}
                title="Rename"
                data-testid="session-rename"
                onClick={() => {
                  setDraft(meta.title);
                  setEditing(meta.id);
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Delete ${meta.title}`}
                title="Delete"
                data-testid="session-delete"
                onClick={() => {
                  if (window.confirm(`Delete "${meta.title}"? This cannot be undone.`)) void switchTo(() => conversationActions.remove(meta.id));
                }}
              >
                ×
              </button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
