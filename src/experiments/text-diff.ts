// A diff of two sequences (lines of a prompt, words of an output) by Myers' O((N+M)·D)
// algorithm in its linear-space form: the middle snake of the edit graph splits the problem in
// two, so memory stays O(N+M) however long the texts are. Bounded: past MAX_EDITS differences
// (or MAX_ITEMS items) the rest is given as one replaced block, and the result says so.

export type DiffOp = { type: "equal" | "delete" | "insert"; items: string[] };

export interface Diff {
  ops: DiffOp[];
  /** True when the bound was reached and part of the difference is one coarse replaced block. */
  bounded: boolean;
  inserted: number;
  deleted: number;
}

export const MAX_ITEMS = 200_000;
export const MAX_EDITS = 4_000;

interface Budget {
  edits: number;
  bounded: boolean;
}

export function diffSequences(a: readonly string[], b: readonly string[], maxEdits = MAX_EDITS): Diff {
  const ops: DiffOp[] = [];
  const push = (type: DiffOp["type"], items: readonly string[]) => {
    if (items.length === 0) return;
    const last = ops[ops.length - 1];
    if (last && last.type === type) last.items.push(...items);
    else ops.push({ type, items: [...items] });
  };
  const budget: Budget = { edits: maxEdits, bounded: false };
  if (a.length + b.length > MAX_ITEMS) {
    budget.bounded = true;
    coarse(a, 0, a.length, b, 0, b.length, push);
  } else {
    diffRange(a, 0, a.length, b, 0, b.length, push, budget);
  }
  let inserted = 0;
  let deleted = 0;
  for (const op of ops) {
    if (op.type === "insert") inserted += op.items.length;
    else if (op.type === "delete") deleted += op.items.length;
  }
  return { ops, bounded: budget.bounded, inserted, deleted };
}

type Push = (type: DiffOp["type"], items: readonly string[]) => void;

/** Common prefix and suffix kept, the middle one delete + insert. */
function coarse(a: readonly string[], aLo: number, aHi: number, b: readonly string[], bLo: number, bHi: number, push: Push) {
  let start = 0;
  while (aLo + start < aHi && bLo + start < bHi && a[aLo + start] === b[bLo + start]) start++;
  let end = 0;
  while (aHi - end > aLo + start && bHi - end > bLo + start && a[aHi - end - 1] === b[bHi - end - 1]) end++;
  push("equal", a.slice(aLo, aLo + start));
  push("delete", a.slice(aLo + start, aHi - end));
  push("insert", b.slice(bLo + start, bHi - end));
  push("equal", a.slice(aHi - end, aHi));
}

function diffRange(a: readonly string[], aLo: number, aHi: number, b: readonly string[], bLo: number, bHi: number, push: Push, budget: Budget): void {
  // Common prefix and suffix need no search.
  let prefix = 0;
  while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
  push("equal", a.slice(aLo, aLo + prefix));
  aLo += prefix;
  bLo += prefix;
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - suffix - 1] === b[bHi - suffix - 1]) suffix++;
  const tail = a.slice(aHi - suffix, aHi);
  aHi -= suffix;
  bHi -= suffix;

  if (aLo === aHi) push("insert", b.slice(bLo, bHi));
  else if (bLo === bHi) push("delete", a.slice(aLo, aHi));
  else {
    const snake = budget.bounded ? null : middleSnake(a, aLo, aHi, b, bLo, bHi, budget);
    if (!snake) coarse(a, aLo, aHi, b, bLo, bHi, push);
    else {
      diffRange(a, aLo, snake.x, b, bLo, snake.y, push, budget);
      push("equal", a.slice(snake.x, snake.u));
      diffRange(a, snake.u, aHi, b, snake.v, bHi, push, budget);
    }
  }
  push("equal", tail);
}

/**
 * The middle snake of the shortest edit script between a[aLo, aHi) and b[bLo, bHi): searched
 * from both ends at once; the snake where the two searches meet lies on an optimal path.
 * Returns null (and marks the budget) when the edits needed exceed what is left of it.
 */
function middleSnake(a: readonly string[], aLo: number, aHi: number, b: readonly string[], bLo: number, bHi: number, budget: Budget): { x: number; y: number; u: number; v: number } | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  const max = Math.ceil((n + m) / 2);
  const offset = max + 1;
  const forward = new Int32Array(2 * max + 3);
  const backward = new Int32Array(2 * max + 3);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  for (let d = 0; d <= max; d++) {
    if (d > budget.edits) {
      budget.bounded = true;
      return null;
    }
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && forward[offset + k - 1]! < forward[offset + k + 1]!) ? forward[offset + k + 1]! : forward[offset + k - 1]! + 1;
      let y = x - k;
      const startX = x;
      const startY = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[offset + k] = x;
      const c = delta - k;
      if (odd && c >= -(d - 1) && c <= d - 1 && x + backward[offset + c]! >= n) {
        budget.edits -= 2 * d - 1;
        return { x: aLo + startX, y: bLo + startY, u: aLo + x, v: bLo + y };
      }
    }
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && backward[offset + k - 1]! < backward[offset + k + 1]!) ? backward[offset + k + 1]! : backward[offset + k - 1]! + 1;
      let y = x - k;
      const endX = x;
      const endY = y;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) {
        x++;
        y++;
      }
      backward[offset + k] = x;
      const c = delta - k;
      if (!odd && c >= -d && c <= d && x + forward[offset + c]! >= n) {
        budget.edits -= 2 * d;
        return { x: aHi - x, y: bHi - y, u: aHi - endX, v: bHi - endY };
      }
    }
  }
  return null;
}

/** Lines, each keeping its line break, so the ops join back into the texts. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Words and the spaces between them, each its own item. */
export function splitWords(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

export function diffLines(a: string, b: string): Diff {
  return diffSequences(splitLines(a), splitLines(b));
}

export function diffWords(a: string, b: string): Diff {
  return diffSequences(splitWords(a), splitWords(b));
}
