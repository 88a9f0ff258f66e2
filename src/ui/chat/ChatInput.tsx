// The message box: Enter sends, Shift+Enter starts a new line; Stop (or Esc anywhere) stops the
// running turn. A message that cannot be sent stays in the box, with the reason above it. The
// box's text is kept for this tab (chat-draft.ts): a reload gives back what was typed, and a
// message sent just before it that the conversation does not hold yet.
import { useCallback, useEffect, useRef, useState } from "react";
import { useConversation, useLabStores, useMcpServers, useRunState } from "../../app/lab-stores-context.tsx";
import { draftToRestore, keepChatDraft, readChatDraft } from "../../store/chat-draft.ts";
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
  const activeId = useConversation((s) => s.active?.id);
  const restored = useRef(false);

  // Once, when the page's conversation is open: the kept text comes back unless it is already the conversation's last message.
  useEffect(() => {
    if (restored.current || !activeId) return;
    restored.current = true;
    const active = stores.conversations.store.getState().active;
    const text = active ? draftToRestore(readChatDraft(), active.id, active.events) : null;
    if (text !== null) setText((current) => current || text);
    else keepChatDraft(activeId, "");
  }, [activeId, stores]);

  const edit = (next: string) => {
    setText(next);
    if (activeId) keepChatDraft(activeId, next);
  };

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
      const next = `${before}${before && !before.endsWith("\n") ? "\n" : ""}${insert.text}${after && !after.startsWith("\n") ? "\n" : ""}${after}`;
      if (activeId) keepChatDraft(activeId, next);
      return next;
    });
  }, [insert, activeId]);

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
    const conversationId = activeId;
    // The kept text stays until the turn is over: a reload before its start is stored gives it back.
    setText("");
    const started = await sendMessage(sending);
    // Not sent (no engine yet, say): give the text back rather than lose it.
    if (!started) setText((current) => current || sending);
    else if (conversationId && readChatDraft()?.text === sending) keepChatDraft(conversationId, "");
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
          onChange={(event) => edit(event.target.value)}
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
