// A text as the model's tokenizer sees it: every token drawn as a box (boundaries visible),
// control tokens marked, and the id and text of the token under the pointer or focus shown
// above. Only the rows in view are in the DOM, so a prompt of many thousand tokens stays fast.
// Keyboard: the list is one tab stop; the arrow keys, Home and End move the focus token by token
// (thousands of tab stops would trap a keyboard user in the view).
import { visibleText } from "../bidi/VisibleBidi.tsx";
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { TokenizedText } from "../../tokens/token-spans.ts";
import { VirtualList } from "../debugger/VirtualList.tsx";
import { tokenLabel, tokenRows } from "./token-rows.ts";
import "./tokens.css";

const ROW_HEIGHT = 24;

interface TokenViewProps {
  text: string;
  tokens: TokenizedText;
  /** Whose tokenizer this is, for the person. */
  label: string;
  /** A note under the header (e.g. that output is re-encoded). */
  note?: string;
}

function pieceOf(text: string, tokens: TokenizedText, index: number): string | null {
  return tokens.spans ? text.slice(tokens.spans.starts[index], tokens.spans.ends[index]) : null;
}

function describeToken(text: string, tokens: TokenizedText, index: number): string {
  const piece = pieceOf(text, tokens, index);
  const shown = piece === null ? "text not placed" : piece === "" ? "part of a character (its other bytes are in the next token)" : JSON.stringify(piece);
  return `token ${(index + 1).toLocaleString("en-US")} of ${tokens.ids.length.toLocaleString("en-US")} · id ${tokens.ids[index]} · ${shown}${tokens.control[index] ? " · control token" : ""}`;
}

export const TokenView = memo(function TokenView({ text, tokens, label, note }: TokenViewProps) {
  const rows = useMemo(() => tokenRows(text, tokens), [text, tokens]);
  const [inspected, setInspected] = useState<number | null>(null);
  const [keyboardTarget, setKeyboardTarget] = useState<number | null>(null);
  const view = useRef<HTMLDivElement>(null);
  const count = tokens.ids.length;
  /** The row a token is drawn in. */
  const rowOf = useCallback(
    (index: number) => {
      let low = 0;
      let high = rows.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (rows[mid]! <= index) low = mid;
        else high = mid - 1;
      }
      return low;
    },
    [rows],
  );

  // After the arrow keys moved on, focus the token once its row is drawn.
  useEffect(() => {
    if (keyboardTarget === null) return;
    // The list scrolls first and draws the row a frame later: wait for it, a few frames at most.
    let frames = 0;
    let handle = 0;
    const focus = () => {
      const element = view.current?.querySelector<HTMLElement>(`[data-token-index="${keyboardTarget}"]`);
      if (element) element.focus();
      else if (frames++ < 10) handle = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(handle);
  }, [keyboardTarget]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const current = inspected ?? -1;
      const perRow = 12;
      const moves: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, ArrowDown: current + perRow, ArrowUp: current - perRow, Home: 0, End: count - 1 };
      const next = moves[event.key];
      if (next === undefined || count === 0) return;
      event.preventDefault();
      const target = Math.max(0, Math.min(count - 1, next));
      setInspected(target);
      setKeyboardTarget(target);
    },
    [inspected, count],
  );
  const renderRow = useCallback(
    (row: number) => {
      const first = rows[row]!;
      const last = row + 1 < rows.length ? rows[row + 1]! : count;
      const cells = [];
      for (let i = first; i < last; i++) {
        const piece = pieceOf(text, tokens, i);
        const control = tokens.control[i] === 1;
        cells.push(
          <span
            key={i}
            className={`tok${control ? " is-control" : ""}${i % 2 ? " is-odd" : ""}${piece === "" ? " is-partial" : ""}`}
            data-testid="token"
            data-token-id={tokens.ids[i]}
            data-token-index={i}
            data-control={control ? "true" : undefined}
            tabIndex={-1}
            aria-label={describeToken(text, tokens, i)}
            onMouseEnter={() => setInspected(i)}
            onFocus={() => setInspected(i)}
          >
            {piece === null ? tokens.ids[i] : visibleText(tokenLabel(piece))}
          </span>,
        );
      }
      return <div className="tok-row">{cells}</div>;
    },
    [rows, count, text, tokens],
  );

  return (
    <div className="tok-view" data-testid="token-view" ref={view}>
      <p className="tok-inspector" data-testid="token-inspector" aria-live="polite">
        {inspected !== null && inspected < count ? describeToken(text, tokens, inspected) : `${count.toLocaleString("en-US")} tokens (${label}). Hover or focus a token for its id and text.`}
      </p>
      {!tokens.spans && (
        <p className="dbg-note" data-testid="token-not-placed">
          The tokens' bytes do not spell this text, so their boundaries cannot be drawn: the ids are shown alone.
        </p>
      )}
      {note && <p className="dbg-hint tok-note">{note}</p>}
      <div className="tok-keys" tabIndex={0} onKeyDown={onKeyDown} aria-label="Tokens: use the arrow keys to move from token to token" data-testid="token-list">
        <VirtualList
          className="tok-list"
          count={rows.length}
          rowHeight={ROW_HEIGHT}
          renderRow={renderRow}
          scrollToIndex={keyboardTarget === null ? null : rowOf(keyboardTarget)}
          aria-label="Tokens"
        />
      </div>
    </div>
  );
});

/** What the token view shows while there are no tokens to draw. */
export function TokenViewStatus({ status }: { status: { state: "off" | "loading" | "unavailable" | "error"; reason?: string; message?: string; label?: string } }) {
  const text =
    status.state === "unavailable"
      ? status.reason
      : status.state === "error"
        ? `Tokenizing failed (${status.label}): ${status.message}`
        : status.state === "loading"
          ? `Tokenizing with ${status.label}… (the first time loads the tokenizer)`
          : "";
  return (
    <p className={status.state === "error" ? "dbg-error-text" : "dbg-empty"} data-testid="token-view-status">
      {text}
    </p>
  );
}
