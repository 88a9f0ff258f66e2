import { describe, expect, it } from "vitest";
import { chatWindow } from "./chat-window.ts";

const sizes = Array.from({ length: 100 }, () => 100); // 10,000 px in all

describe("chatWindow", () => {
  it("keeps the items around the view, and the height of the rest as blank space", () => {
    const w = chatWindow(sizes, 5000, 1000, 500, false);
    expect(w).toEqual({ start: 45, end: 65, before: 4500, after: 3500 });
    expect(w.before + (w.end - w.start) * 100 + w.after).toBe(10_000);
  });

  it("at the bottom, shows the last items whatever the scroll position says", () => {
    expect(chatWindow(sizes, 0, 1000, 200, true)).toEqual({ start: 88, end: 100, before: 8800, after: 0 });
  });

  it("at the top, starts at the first item", () => {
    expect(chatWindow(sizes, 0, 800, 200, false)).toEqual({ start: 0, end: 10, before: 0, after: 9000 });
  });

  it("uses each item's own height", () => {
    const mixed = [50, 2000, 50, 50, 50];
    // The tall item spans the view, so it alone (with what the overscan reaches) is kept.
    expect(chatWindow(mixed, 1000, 300, 100, false)).toEqual({ start: 1, end: 2, before: 50, after: 150 });
  });

  it("always keeps at least the last item of a list scrolled past its end", () => {
    expect(chatWindow([100, 100], 10_000, 500, 0, false)).toEqual({ start: 1, end: 2, before: 100, after: 0 });
    expect(chatWindow([], 0, 500, 100, true)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});
