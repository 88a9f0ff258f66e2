// The conversation: every turn derived from the event log, newest at the bottom, kept in view
// while it streams unless the reader has scrolled up. A long conversation is windowed: only the
// turns near the view are in the DOM, the rest is blank space of their measured (or estimated)
// height, so opening a thousand-step session renders a screenful, not a thousand cards.
import "./chat.css";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useConversationStore } from "../../store/conversation-store.ts";
import { createChatDeriver } from "../../store/derive-chat.ts";
import { AssistantMessage } from "./AssistantMessage.tsx";
import { ChatInput } from "./ChatInput.tsx";
import { chatWindow } from "./chat-window.ts";

/** Up to this many turns everything is rendered (cheap, and find-in-page sees it all). */
const WINDOW_ABOVE = 60;
/** Height assumed for a turn not yet seen; measured heights replace it. */
const ESTIMATED_HEIGHT = 120;
/** Rendered beyond each edge of the view, so scrolling rarely meets blank space. */
const OVERSCAN_PX = 1000;
/** Within this distance of the bottom the view counts as at the bottom (and follows). */
const STICK_PX = 40;

interface View {
  top: number;
  height: number;
  stuck: boolean;
}

export function ChatPane({ emptyHint }: { emptyHint?: string }) {
  const events = useConversationStore((s) => s.active?.events);
  const liveRunId = useConversationStore((s) => s.liveRunId);
  const derive = useMemo(() => createChatDeriver(), []);
  const items = useMemo(() => derive(events ?? [], liveRunId), [derive, events, liveRunId]);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  const lastScrollTop = useRef(0);
  const [view, setView] = useState<View>({ top: 0, height: 0, stuck: true });
  const [shownCount, setShownCount] = useState(items.length);
  // Measured heights by item key; `measured` changes whenever one does, to re-window.
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const rowObserver = useRef<ResizeObserver | null>(null);

  // A new turn (the user just sent, or a conversation opened) brings the bottom into view.
  if (items.length !== shownCount) {
    setShownCount(items.length);
    if (items.length > shownCount && !view.stuck) setView({ ...view, stuck: true });
  }
  useLayoutEffect(() => {
    stuckToBottom.current = view.stuck;
  }, [view.stuck]);

  // While a turn streams, the view follows the bottom unless the reader scrolled up. A resize
  // observer runs after layout, so following costs no extra layout pass per frame.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const follow = () => {
      if (stuckToBottom.current) el.scrollTop = el.scrollHeight;
      setView((v) => (v.height === el.clientHeight ? v : { ...v, height: el.clientHeight }));
    };
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    observer.observe(el);
    return () => {
      observer.disconnect();
      rowObserver.current?.disconnect();
    };
  }, []);

  // Rows report their height once laid out (and when they change: a card opened, text streamed).
  // A row above the view that turns out taller or shorter than assumed moves the scroll position
  // by as much, so what the reader is looking at stays put.
  const observeRow = useCallback((row: HTMLDivElement | null) => {
    if (!row) return;
    rowObserver.current ??= new ResizeObserver((entries) => {
      const el = scroller.current;
      let changed = false;
      let shift = 0;
      const viewTop = el ? el.getBoundingClientRect().top : 0;
      for (const entry of entries) {
        const target = entry.target as HTMLElement;
        const key = target.dataset.key;
        if (!key || !target.isConnected) continue;
        const size = target.offsetHeight;
        const before = heights.current.get(key) ?? ESTIMATED_HEIGHT;
        if (heights.current.get(key) === size) continue;
        heights.current.set(key, size);
        changed = true;
        // Only a row wholly above the view moves what is in view. A row that reaches into the
        // view (a reply streaming while the reader scrolled up into it) grows below its top:
        // shifting by that growth would drag the reader along to the bottom.
        if (target.getBoundingClientRect().bottom <= viewTop) shift += size - before;
      }
      if (!changed) return;
      if (el && shift !== 0 && !stuckToBottom.current) el.scrollTop += shift;
      setMeasured((n) => n + 1);
    });
    const observer = rowObserver.current;
    observer.observe(row);
    return () => observer.unobserve(row);
  }, []);

  const windowed = items.length > WINDOW_ABOVE;
  const range = useMemo(() => {
    if (!windowed) return { start: 0, end: items.length, before: 0, after: 0 };
    void measured; // heights.current has changed
    const sizes = items.map((item) => heights.current.get(item.key) ?? ESTIMATED_HEIGHT);
    return chatWindow(sizes, view.top, view.height || 800, OVERSCAN_PX, view.stuck);
  }, [windowed, items, measured, view]);

  return (
    <div className="chat">
      <div
        className="chat-scroll"
        ref={scroller}
        data-testid="chat-log"
        onScroll={(event) => {
          const el = event.currentTarget;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
          // Only a scroll upward lets go of the bottom. The view's own follow-scrolls go down, and
          // by the time their scroll event arrives the stream may have grown the content past
          // STICK_PX: judged by distance alone, a fast stream would stop being followed.
          const movedUp = el.scrollTop < lastScrollTop.current;
          lastScrollTop.current = el.scrollTop;
          const stuck = atBottom || (stuckToBottom.current && !movedUp);
          stuckToBottom.current = stuck;
          if (windowed || stuck !== view.stuck) setView({ top: el.scrollTop, height: el.clientHeight, stuck });
        }}
      >
        <div className="chat-items" ref={content}>
          {items.length === 0 && <p className="empty chat-empty">{emptyHint ?? "Your conversation with the model appears here, with each tool call as a card."}</p>}
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
