// Which turns of a long conversation the chat puts in the DOM: those within reach of the view,
// from each turn's measured height (or an estimate until it has been on screen once). Pure, so
// the arithmetic is tested without a browser.

export interface ChatWindow {
  /** First item rendered. */
  start: number;
  /** One past the last item rendered. */
  end: number;
  /** Height the skipped items above and below take, kept as blank space. */
  before: number;
  after: number;
}

/**
 * The items overlapping [top - overscan, top + height + overscan] of the list. When `atBottom`,
 * the view is taken to be the end of the list, whatever `top` says: a conversation opened or
 * followed while it streams shows its newest turns straight away.
 */
export function chatWindow(sizes: readonly number[], top: number, height: number, overscan: number, atBottom: boolean): ChatWindow {
  const count = sizes.length;
  let total = 0;
  for (const size of sizes) total += size;
  const viewTop = atBottom ? Math.max(0, total - height) : Math.max(0, top);
  const from = viewTop - overscan;
  const to = viewTop + height + overscan;
  let start = 0;
  let offset = 0;
  while (start < count - 1 && offset + (sizes[start] as number) <= from) offset += sizes[start++] as number;
  const before = offset;
  let end = start;
  while (end < count && offset < to) offset += sizes[end++] as number;
  return { start, end, before, after: total - offset };
}
