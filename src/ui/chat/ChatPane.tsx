// The conversation: every turn derived from the event log, newest at the bottom, kept in view
// while it streams unless the reader has scrolled up.
import "./chat.css";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { useConversationStore } from "../../store/conversation-store.ts";
import { createChatDeriver } from "../../store/derive-chat.ts";
import { AssistantMessage } from "./AssistantMessage.tsx";
import { ChatInput } from "./ChatInput.tsx";

export function ChatPane({ emptyHint }: { emptyHint?: string }) {
  const events = useConversationStore((s) => s.active?.events);
  const liveRunId = useConversationStore((s) => s.liveRunId);
  const derive = useMemo(() => createChatDeriver(), []);
  const items = useMemo(() => derive(events ?? [], liveRunId), [derive, events, liveRunId]);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  const shownCount = useRef(0);

  // A new turn (the user just sent, or a conversation opened) brings the bottom into view.
  useLayoutEffect(() => {
    if (items.length > shownCount.current) stuckToBottom.current = true;
    shownCount.current = items.length;
  }, [items]);

  // While a turn streams, the view follows the bottom unless the reader scrolled up. A resize
  // observer runs after layout, so following costs no extra layout pass per frame.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const follow = () => {
      if (stuckToBottom.current) el.scrollTop = el.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div className="chat">
      <div
        className="chat-scroll"
        ref={scroller}
        data-testid="chat-log"
        onScroll={(event) => {
          const el = event.currentTarget;
          stuckToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        <div className="chat-items" ref={content}>
          {items.length === 0 && <p className="empty chat-empty">{emptyHint ?? "Your conversation with the model appears here, with each tool call as a card."}</p>}
          {items.map((item) =>
            item.kind === "user" ? (
              <article key={item.key} className="msg msg-user" data-testid="message-user">
                <div className="msg-body">{item.content}</div>
              </article>
            ) : (
              <AssistantMessage key={item.key} turn={item} />
            ),
          )}
        </div>
      </div>
      <ChatInput />
    </div>
  );
}
