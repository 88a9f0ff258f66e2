// The conversation: every turn derived from the event log, newest at the bottom; how the view
// follows it and windows a long one is use-chat-scroll.ts.
import "./chat.css";
import { useMemo } from "react";
import { useConversationStore } from "../../store/conversation-store.ts";
import { createChatDeriver } from "../../store/derive-chat.ts";
import { AssistantMessage } from "./AssistantMessage.tsx";
import { ChatEmptyState } from "./ChatEmptyState.tsx";
import { ChatInput } from "./ChatInput.tsx";
import { useChatScroll } from "./use-chat-scroll.ts";

export function ChatPane() {
  const events = useConversationStore((s) => s.active?.events);
  const liveRunId = useConversationStore((s) => s.liveRunId);
  const derive = useMemo(() => createChatDeriver(), []);
  const items = useMemo(() => derive(events ?? [], liveRunId), [derive, events, liveRunId]);
  const { scroller, content, onScroll, observeRow, range } = useChatScroll(items);

  return (
    <div className="chat">
      <div className="chat-scroll" ref={scroller} data-testid="chat-log" onScroll={onScroll}>
        <div className="chat-items" ref={content}>
          {items.length === 0 && <ChatEmptyState />}
          {range.before > 0 && <div aria-hidden="true" style={{ height: range.before }} />}
          {items.slice(range.start, range.end).map((item, i) => (
            <div key={item.key} ref={observeRow} data-key={item.key} className={range.start + i === 0 ? "chat-row" : "chat-row chat-row-gap"}>
              {item.kind === "user" ? (
                <article className="msg msg-user" data-testid="message-user">
                  <div className="msg-body">{item.content}</div>
                </article>
              ) : (
                <AssistantMessage turn={item} />
              )}
            </div>
          ))}
          {range.after > 0 && <div aria-hidden="true" style={{ height: range.after }} />}
        </div>
      </div>
      <ChatInput />
    </div>
  );
}
