// How the chat's scroll view behaves: it follows the bottom while a turn streams unless the reader
// scrolled up, and a long conversation is windowed (only the turns near the view are in the DOM,
// the rest is blank space of their measured or estimated height), so opening a thousand-step
// session renders a screenful, not a thousand cards.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject, type UIEvent } from "react";
import { chatWindow, type ChatWindow } from "./chat-window.ts";

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

export interface ChatScroll {
  scroller: RefObject<HTMLDivElement | null>;
  content: RefObject<HTMLDivElement | null>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  /** Ref callback for each rendered row (it carries `data-key`): its height is measured. */
  observeRow: (row: HTMLDivElement | null) => (() => void) | undefined;
  /** The items to render and the blank space around them. */
  range: ChatWindow;
}

export function useChatScroll(items: readonly { key: string }[]): ChatScroll {
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

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
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
  };

  return { scroller, content, onScroll, observeRow, range };
}
