// A fixed-row-height windowed list: only the rows in view (plus a few) are in the DOM, so a
// list of thousands of steps or parse events scrolls and updates as fast as one of twenty.
// It never reads the layout in its own effects: its height comes from a ResizeObserver (called
// once layout is done) and its scroll position from scroll events. Reading clientHeight when it
// mounted forced a layout of the whole page then: 0.5–2.6 s in one task when the debugger beside
// it held a prompt of 80,000 control-token chips.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { flushSync } from "react-dom";

const OVERSCAN = 6;

interface VirtualListProps {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  /** Brought into view whenever it changes. */
  scrollToIndex?: number | null;
  className?: string;
  style?: CSSProperties;
  "aria-label"?: string;
  "data-testid"?: string;
}

export function VirtualList({ count, rowHeight, renderRow, scrollToIndex, className, style, ...rest }: VirtualListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  // The latest of both for the scroll effect, which must not read them from the DOM.
  const view = useRef({ scrollTop: 0, height: 400 });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // The first call comes after the next layout and before its paint; flushSync draws the rows
    // for the real height in that same frame.
    const observer = new ResizeObserver(() => {
      const measured = element.clientHeight || 400;
      view.current.height = measured;
      flushSync(() => setHeight(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = scroller.current;
    if (!element || scrollToIndex === null || scrollToIndex === undefined || scrollToIndex < 0) return;
    const top = scrollToIndex * rowHeight;
    const { scrollTop: shownTop, height: shownHeight } = view.current;
    if (top < shownTop) element.scrollTop = top;
    else if (top + rowHeight > shownTop + shownHeight) element.scrollTop = top + rowHeight - shownHeight;
  }, [scrollToIndex, rowHeight, count]);

  const onScroll = useCallback(() => {
    if (!scroller.current) return;
    view.current.scrollTop = scroller.current.scrollTop;
    setScrollTop(view.current.scrollTop);
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} className="dbg-vrow" style={{ top: i * rowHeight, height: rowHeight }}>
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div ref={scroller} className={`dbg-vlist ${className ?? ""}`} style={style} onScroll={onScroll} {...rest}>
      <div className="dbg-vlist-inner" style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
