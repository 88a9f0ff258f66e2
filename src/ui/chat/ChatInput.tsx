// The message box: Enter sends, Shift+Enter starts a new line; Stop (or Esc anywhere) stops the
// running turn. A message that cannot be sent stays in the box, with the reason above it.
import { useCallback, useEffect, useRef, useState } from "react";
import { useLabStores, useMcpServers, useRunState } from "../../app/lab-stores-context.tsx";
import { ContextWarning } from "./ContextWarning.tsx";

export function ChatInput() {
  const [text, setText] = useState("");
  const stores = useLabStores();
  const { dismissRunNotice, sendMessage, stopRun: stopTurn } = stores.runController;
  // Stop and Esc end whatever runs: a turn, or a branch (a forced token, a re-run, a continuation).
  const stopRun = useCallback(() => {
    stopTurn();
    stores.branchController.stopBranch();
  }, [stores, stopTurn]);
  const running = useRunState((s) => s.running);
  const notice = useRunState((s) => s.notice);
  const box = useRef<HTMLTextAreaElement>(null);

  // An MCP resource attached or a prompt inserted from the MCP panel goes in where the cursor is.
  const insert = useMcpServers((s) => s.composerInsert);
  const insertedSeq = useRef(0);
  useEffect(() => {
    if (!insert || insert.seq === insertedSeq.current) return;
    insertedSeq.current = insert.seq;
    const area = box.current;
    setText((current) => {
      const at = area && document.activeElement === area ? area.selectionStart : current.length;
      const before = current.slice(0, at);
      const after = current.slice(at);
      return `${before}${before && !before.endsWith("\n") ? "\n" : ""}${insert.text}${after && !after.startsWith("\n") ? "\n" : ""}${after}`;
    });
  }, [insert]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && stores.run.getState().running) {
        event.preventDefault();
        stopRun();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [stores, stopRun]);

  const send = async () => {
    if (running || !text.trim()) return;
    const sending = text;
    setText("");
    const started = await sendMessage(sending);
    // Not sent (no engine yet, say): give the text back rather than lose it.
    if (!started) setText((current) => current || sending);
    box.current?.focus();
  };

  return (
    <div className="chat-input">
      {notice && (
        <div className="chat-notice notice-warn input-notice" role="alert" data-testid="send-notice">
          <span>{notice}</span>
          <button type="button" className="link-button" onClick={dismissRunNotice} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {!running && <ContextWarning draft={text} />}
      <div className="chat-input-row">
        <textarea
          ref={box}
          id="chat-input"
          data-testid="chat-input"
          aria-label="Message"
          placeholder={running ? "Generating… (Esc to stop)" : "Ask something that needs a tool — Enter to send, Shift+Enter for a new line"}
          value={text}
          rows={2}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
        />
        <div className="chat-input-buttons">
          <button type="button" className="primary" data-testid="send-button" disabled={running || !text.trim()} onClick={() => void send()}>
            Send
          </button>
          <button type="button" data-testid="stop-button" disabled={!running} onClick={stopRun} title="Stop (Esc)">
            Stop
          </button>
        </div>
      </div>
    </div>
  );
}
