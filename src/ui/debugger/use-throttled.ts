// A value that follows its source at most once per interval (the latest one always arrives).
// The debugger reads a log that grows by hundreds of events a second while a model streams; it
// need not redraw for each, and every redraw it skips leaves the main thread to the chat.
import { useEffect, useRef, useState } from "react";

export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShownAt = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const wait = lastShownAt.current + intervalMs - performance.now();
    const show = () => {
      lastShownAt.current = performance.now();
      setShown(() => value);
    };
    if (wait <= 0) {
      show();
      return;
    }
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [value, shown, intervalMs]);
  return shown;
}
