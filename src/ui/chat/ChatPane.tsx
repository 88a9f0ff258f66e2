// The conversation: every turn derived from the event log, newest at the bottom; how the view
// follows it and windows a long one is use-chat-scroll.ts.
import { useConversation, useEngineState } from "../../app/lab-stores-context.tsx";
import { firstReplayedRun } from "../../store/replay-progress.ts";
import "./chat.css";
import { useEffect, useMemo } from "react";
import { createChatDeriver, type ChatItem } from "../../store/derive-chat.ts";
import { markShown } from "../../store/render-guard.ts";
import { ErrorBoundary } from "../ErrorBoundary.tsx";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";
import { AssistantMessage } from "./AssistantMessage.tsx";
import { ChatEmptyState } from "./ChatEmptyState.tsx";
import { ChatInput } from "./ChatInput.tsx";
import { CpuModelAgain } from "./CpuModelAgain.tsx";
import { ReplayEnded } from "./ReplayEnded.tsx";
import { useChatScroll } from "./use-chat-scroll.ts";

/** The words of a message, for showing one that could not be rendered as plain text. */
function plainTextOf(item: ChatItem): string {
  if (item.kind === "user") return item.content;
  return item.blocks.map((b) => (b.kind === "tool-call" ? `[${b.card.name}(${b.card.argumentsText})]` : b.text)).join("\n\n");
}

/** One message failed to render: say so, offer its text, and leave the rest of the chat alone. */
function MessageFailed({ item, error }: { item: ChatItem; error: Error }) {
  return (
    <article className="msg msg-failed" role="alert" data-testid="message-failed">
      <p>
        This {item.kind === "user" ? "message" : "reply"} could not be shown: <span className="mono">{error.message || error.name}</span>
      </p>
      <details>
        <summary>Show its text as written</summary>
        <pre className="mono msg-failed-text">{visibleBidi(plainTextOf(item))}</pre>
      </details>
    </article>
  );
}

/** A replayed reply to a message its recording was not made for: which run, and what to say beside it. */
function useReplayMismatch(): { runId: string; text: string } | null {
  const transcript = useEngineState((s) => (s.kind === "replay" ? s.transcript : null));
  const expected = transcript?.suggestedMessage?.trim();
  // A string (or null) from the selector: a new object each time would never settle.
  const runId = useConversation((s) => {
    const first = s.active && transcript && expected ? firstReplayedRun(transcript, s.active) : null;
    return first && first.message.trim() !== expected ? first.runId : null;
  });
  return useMemo(
    () => (runId && expected ? { runId, text: `A recording: it was made for “${expected}”, not for your message, so this reply may not fit what you asked.` } : null),
    [runId, expected],
  );
}

export function ChatPane() {
  const activeId = useConversation((s) => s.active?.id);
  const events = useConversation((s) => s.active?.events);
  const liveRunId = useConversation((s) => s.liveRunId);
  const derive = useMemo(() => createChatDeriver(), []);
  const items = useMemo(() => derive(events ?? [], liveRunId), [derive, events, liveRunId]);
  const { scroller, content, onScroll, observeRow, range } = useChatScroll(items);
  const replayNote = useReplayMismatch();
  // Rendered (committed) without a crash: the next start may reopen this conversation.
  useEffect(() => {
    if (activeId) markShown(activeId);
  }, [activeId]);

  return (
    <div className="chat">
      <div className="chat-scroll" ref={scroller} data-testid="chat-log" onScroll={onScroll}>
        <div className="chat-items" ref={content}>
          {items.length === 0 && <ChatEmptyState />}
          {range.before > 0 && <div aria-hidden="true" style={{ height: range.before }} />}
          {items.slice(range.start, range.end).map((item, i) => (
            <div key={item.key} ref={observeRow} data-key={item.key} className={range.start + i === 0 ? "chat-row" : "chat-row chat-row-gap"}>
              <ErrorBoundary resetKeys={[item]} fallback={(error) => <MessageFailed item={item} error={error} />}>
                {item.kind === "user" && item.source ? (
                  <article className={`msg msg-given msg-given-${item.role ?? "user"}`} data-testid="message-mcp-prompt" data-role={item.role ?? "user"}>
                    <div className="msg-meta">
                      <span className="msg-role">{item.role ?? "user"}</span>
                      <span className="chip">
                        MCP prompt {visibleName(item.source.prompt)} · {visibleName(item.source.server)}
                      </span>
                    </div>
                    <div className="msg-body">{visibleBidi(item.content)}</div>
                  </article>
                ) : item.kind === "user" ? (
                  <article className="msg msg-user" data-testid="message-user">
                    <div className="msg-body">{visibleBidi(item.content)}</div>
                  </article>
                ) : (
                  <AssistantMessage turn={item} replayNote={replayNote?.runId === item.runId ? replayNote.text : undefined} />
                )}
              </ErrorBoundary>
            </div>
          ))}
          {range.after > 0 && <div aria-hidden="true" style={{ height: range.after }} />}
          {items.length > 0 && <ReplayEnded />}
        </div>
      </div>
      {items.length > 0 && <CpuModelAgain />}
      <ChatInput />
    </div>
  );
}
