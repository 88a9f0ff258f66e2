// Inline Markdown: code spans, bold, italic, http(s) links (written and bare), escapes and line
// breaks. Model output can be anything, so the work is linear in the text and the nesting is
// bounded: code-span closers, bracket pairs and the next ")" are found by one pass each up front,
// emphasis is paired with CommonMark's delimiter stack (each delimiter is passed over a bounded
// number of times), and what nests deeper than MAX_INLINE_DEPTH is shown as the text it was written as.
import { countWork, type WorkMeter } from "./work-meter.ts";

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

/** Emphasis and links inside each other beyond this depth are shown as written. */
export const MAX_INLINE_DEPTH = 12;

/** Only these schemes may become links; everything else is shown as text. */
export function isSafeHref(href: string): boolean {
  return /^https?:\/\/\S+$/i.test(href.trim());
}

const ESCAPABLE = new Set("\\`*_{}[]()#+-.!<>|~");
const URL_START = /https?:\/\/[^\s<>()[\]"'`]+[^\s<>()[\]"'`.,;:!?]/y;
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** A stretch with nothing for the scanner to decide (taken in one step, not a character at a time). */
const PLAIN_RUN = /[^\\\n`*_[hH]+/y;
const WHITESPACE = /\s/;
const PUNCTUATION = /[\p{P}\p{S}]/u;

/** What one pass over the text finds once, so no later step has to search forward again. */
interface Lookup {
  text: string;
  /** Start of a backtick run → start of the next run of the same length (its closer). */
  codeCloser: Map<number, number>;
  /** Index of a "[" → index of its matching "]" (escapes skipped). */
  bracketClose: Map<number, number>;
  /** For each index, the next ")" at or after it (text.length when none). */
  nextParen: Int32Array;
  meter: WorkMeter | undefined;
}

function buildLookup(text: string, meter: WorkMeter | undefined): Lookup {
  const n = text.length;
  countWork(meter, 3 * n);
  const codeCloser = new Map<number, number>();
  const bracketClose = new Map<number, number>();
  const nextParen = new Int32Array(n + 1);
  nextParen[n] = n;
  for (let i = n - 1; i >= 0; i--) nextParen[i] = text.charCodeAt(i) === 41 /* ) */ ? i : nextParen[i + 1]!;

  // Backtick runs, right to left: the nearest run of each length to the right closes a run.
  const nearestRun = new Map<number, number>();
  for (let end = n; end > 0; ) {
    if (text[end - 1] !== "`") {
      end -= 1;
      continue;
    }
    let start = end - 1;
    while (start > 0 && text[start - 1] === "`") start -= 1;
    const length = end - start;
    const closer = nearestRun.get(length);
    if (closer !== undefined) codeCloser.set(start, closer);
    nearestRun.set(length, start);
    end = start;
  }

  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < n && ESCAPABLE.has(text[i + 1]!)) i += 1;
    else if (ch === "[") open.push(i);
    else if (ch === "]" && open.length > 0) bracketClose.set(open.pop()!, i);
  }
  return { text, codeCloser, bracketClose, nextParen, meter };
}

// The scan's output before emphasis is paired: a doubly linked list of nodes, where delimiter
// runs (* and _) are nodes too, so pairing one can wrap the nodes between in O(1).
interface Delimiter {
  char: "*" | "_";
  /** Characters of the run not yet used by a pairing. */
  count: number;
  /** The run's length as written (CommonMark's "multiple of 3" rule needs it). */
  length: number;
  canOpen: boolean;
  canClose: boolean;
  /** The run's unused characters, in the source (they shrink from the inner side as they pair). */
  start: number;
  end: number;
  prevDelim: Node | null;
  nextDelim: Node | null;
}

interface Node {
  prev: Node | null;
  next: Node | null;
  /** A finished inline node, or a delimiter run, or emphasis whose children are a sublist. */
  inline?: Inline;
  /** Marks text that must not merge with neighbours (an unsafe link's label stays apart). */
  sealed?: boolean;
  delim?: Delimiter;
  emphasis?: { type: "strong" | "em"; first: Node | null; last: Node | null; start: number; end: number };
}

export function parseInline(text: string, meter?: WorkMeter): Inline[] {
  return parseRange(buildLookup(text, meter), 0, text.length, 0);
}

function parseRange(lookup: Lookup, from: number, to: number, depth: number): Inline[] {
  const { text, meter } = lookup;
  const head: Node = { prev: null, next: null };
  let tail = head;
  let lastDelim: Node | null = null;
  let buffer = "";
  const append = (node: Node) => {
    node.prev = tail;
    tail.next = node;
    tail = node;
  };
  const flush = () => {
    if (buffer) append({ prev: null, next: null, inline: { type: "text", text: buffer } });
    buffer = "";
  };

  let i = from;
  while (i < to) {
    countWork(meter, 1);
    PLAIN_RUN.lastIndex = i;
    if (PLAIN_RUN.test(text)) {
      const end = Math.min(PLAIN_RUN.lastIndex, to);
      countWork(meter, end - i);
      buffer += text.slice(i, end);
      i = end;
      continue;
    }
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < to && ESCAPABLE.has(text[i + 1]!)) {
      buffer += text[i + 1]!;
      i += 2;
      continue;
    }
    if (ch === "\n") {
      flush();
      append({ prev: null, next: null, inline: { type: "break" } });
      i += 1;
      continue;
    }
    if (ch === "`") {
      let run = 1;
      while (i + run < to && text[i + run] === "`") run += 1;
      countWork(meter, run);
      const close = lookup.codeCloser.get(i);
      if (close !== undefined && close + run <= to && (i === 0 || text[i - 1] !== "`")) {
        flush();
        append({ prev: null, next: null, inline: { type: "code", text: text.slice(i + run, close).replace(/\n/g, " ") } });
        countWork(meter, close - i);
        i = close + run;
        continue;
      }
      buffer += "`".repeat(run);
      i += run;
      continue;
    }
    if (ch === "*" || ch === "_") {
      let run = 1;
      while (i + run < to && text[i + run] === ch) run += 1;
      countWork(meter, run);
      flush();
      const delim = delimiterRun(text, i, i + run, ch);
      const node: Node = { prev: null, next: null, delim };
      append(node);
      delim.prevDelim = lastDelim;
      if (lastDelim) lastDelim.delim!.nextDelim = node;
      lastDelim = node;
      i += run;
      continue;
    }
    if (ch === "[") {
      const link = readLink(lookup, i, to);
      if (link) {
        flush();
        if (!isSafeHref(link.href)) {
          append({ prev: null, next: null, sealed: true, inline: { type: "text", text: text.slice(link.labelStart, link.labelEnd) } });
        } else {
          const children =
            depth + 1 >= MAX_INLINE_DEPTH
              ? [{ type: "text" as const, text: text.slice(link.labelStart, link.labelEnd) }]
              : parseRange(lookup, link.labelStart, link.labelEnd, depth + 1);
          append({ prev: null, next: null, inline: { type: "link", href: link.href.trim(), children } });
        }
        i = link.end;
        continue;
      }
    }
    if ((ch === "h" || ch === "H") && (i === from || !WORD_CHAR.test(text[i - 1]!))) {
      URL_START.lastIndex = i;
      const match = URL_START.exec(text);
      if (match && i + match[0].length <= to) {
        countWork(meter, match[0].length);
        flush();
        append({ prev: null, next: null, inline: { type: "link", href: match[0], children: [{ type: "text", text: match[0] }] } });
        i += match[0].length;
        continue;
      }
    }
    buffer += ch;
    i += 1;
  }
  flush();

  pairEmphasis(lastDelim, meter);
  return toInlines(head.next, null, text, depth, meter);
}

function classify(ch: string): "space" | "punct" | "other" {
  if (WHITESPACE.test(ch)) return "space";
  return PUNCTUATION.test(ch) ? "punct" : "other";
}

/** CommonMark's flanking rules: whether a run of * or _ can open or close emphasis. */
function delimiterRun(text: string, start: number, end: number, char: "*" | "_"): Delimiter {
  const before = classify(start > 0 ? text[start - 1]! : " ");
  const after = classify(end < text.length ? text[end]! : " ");
  const leftFlanking = after !== "space" && (after !== "punct" || before !== "other");
  const rightFlanking = before !== "space" && (before !== "punct" || after !== "other");
  const canOpen = char === "*" ? leftFlanking : leftFlanking && (!rightFlanking || before === "punct");
  const canClose = char === "*" ? rightFlanking : rightFlanking && (!leftFlanking || after === "punct");
  return { char, count: end - start, length: end - start, canOpen, canClose, start, end, prevDelim: null, nextDelim: null };
}

function readLink(lookup: Lookup, open: number, to: number): { labelStart: number; labelEnd: number; href: string; end: number } | null {
  const { text } = lookup;
  const close = lookup.bracketClose.get(open);
  if (close === undefined || close + 1 >= to || text[close + 1] !== "(") return null;
  const paren = lookup.nextParen[close + 2]!;
  if (paren >= to) return null;
  const href = text.slice(close + 2, paren).split(/\s+"/)[0]!;
  countWork(lookup.meter, paren - close);
  return { labelStart: open + 1, labelEnd: close, href, end: paren + 1 };
}

function unlinkDelim(node: Node): void {
  const d = node.delim!;
  if (d.prevDelim) d.prevDelim.delim!.nextDelim = d.nextDelim;
  if (d.nextDelim) d.nextDelim.delim!.prevDelim = d.prevDelim;
  d.prevDelim = null;
  d.nextDelim = null;
}

/**
 * CommonMark's "process emphasis": each closer looks back for an opener of its kind, no further
 * than where an earlier search of the same kind gave up (openersBottom), and a pairing removes
 * every delimiter between the two — so each delimiter is passed over a bounded number of times.
 */
function pairEmphasis(lastDelim: Node | null, meter: WorkMeter | undefined): void {
  let first = lastDelim;
  while (first?.delim!.prevDelim) first = first.delim!.prevDelim;
  const openersBottom = new Map<string, Node | null>();
  let current = first;
  while (current) {
    countWork(meter, 1);
    const closer = current.delim!;
    if (!closer.canClose) {
      current = closer.nextDelim;
      continue;
    }
    const key = `${closer.char}${closer.canOpen ? 1 : 0}${closer.length % 3}`;
    const bottom = openersBottom.has(key) ? openersBottom.get(key)! : null;
    let opener = closer.prevDelim;
    let found: Node | null = null;
    while (opener && opener !== bottom) {
      countWork(meter, 1);
      const o = opener.delim!;
      if (o.char === closer.char && o.canOpen) {
        const oddMatch = (o.canClose || closer.canOpen) && (o.length + closer.length) % 3 === 0 && !(o.length % 3 === 0 && closer.length % 3 === 0);
        if (!oddMatch) {
          found = opener;
          break;
        }
      }
      opener = o.prevDelim;
    }
    if (!found) {
      openersBottom.set(key, closer.prevDelim);
      const next = closer.nextDelim;
      if (!closer.canOpen) unlinkDelim(current);
      current = next;
      continue;
    }
    const o = found.delim!;
    const use = o.count >= 2 && closer.count >= 2 ? 2 : 1;
    o.count -= use;
    o.end -= use;
    closer.count -= use;
    const emphasis: Node = {
      prev: found,
      next: current,
      emphasis: {
        type: use === 2 ? "strong" : "em",
        first: found.next === current ? null : found.next,
        last: current.prev === found ? null : current.prev,
        start: o.end,
        end: closer.start + use,
      },
    };
    closer.start += use;
    found.next = emphasis;
    current.prev = emphasis;
    // Delimiters between the pair can no longer pair with anything outside it.
    for (let between = closer.prevDelim; between && between !== found; ) {
      countWork(meter, 1);
      const previous = between.delim!.prevDelim;
      unlinkDelim(between);
      between = previous;
    }
    if (o.count === 0) {
      removeNode(found);
      unlinkDelim(found);
    }
    if (closer.count === 0) {
      const next = closer.nextDelim;
      removeNode(current);
      unlinkDelim(current);
      current = next;
    }
  }
}

function removeNode(node: Node): void {
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
}

/** The nodes from `first` through `last` (or to the end) as inline nodes, adjacent text merged. */
function toInlines(first: Node | null, last: Node | null, text: string, depth: number, meter: WorkMeter | undefined): Inline[] {
  const out: Inline[] = [];
  let mergeable = false;
  const pushText = (value: string, sealed: boolean) => {
    if (!value) return;
    const previous = out[out.length - 1];
    if (mergeable && !sealed && previous?.type === "text") previous.text += value;
    else out.push({ type: "text", text: value });
    mergeable = !sealed;
  };
  for (let node = first; node; node = node.next) {
    countWork(meter, 1);
    if (node.delim) {
      pushText(node.delim.char.repeat(node.delim.count), false);
    } else if (node.emphasis) {
      const e = node.emphasis;
      if (depth + 1 >= MAX_INLINE_DEPTH) {
        pushText(text.slice(e.start, e.end), false);
      } else {
        out.push({ type: e.type, children: e.first ? toInlines(e.first, e.last, text, depth + 1, meter) : [] });
        mergeable = false;
      }
    } else if (node.inline) {
      if (node.inline.type === "text") pushText(node.inline.text, Boolean(node.sealed));
      else {
        out.push(node.inline);
        mergeable = false;
      }
    }
    if (node === last) break;
  }
  return out;
}
