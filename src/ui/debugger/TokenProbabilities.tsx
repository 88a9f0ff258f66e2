// The raw output token by token, coloured by each token's probability; hovering or focusing a
// token shows the alternatives the engine recorded there (text, control tokens as chips) with
// their probabilities, and each can be forced: the step is run again as a branch from that token.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { formatP } from "toolcall-middleware/probabilities/decision-point.ts";
import type { PlacedToken } from "toolcall-middleware/probabilities/step-tokens.ts";
import type { TokenAlternative } from "toolcall-middleware/types.ts";
import { visibleText } from "../bidi/VisibleBidi.tsx";
import { useMountedInBatches } from "./use-mounted-in-batches.ts";

interface TokenProbabilitiesProps {
  tokens: readonly PlacedToken[];
  controlTokens: readonly string[];
  /** Runs the step again from this token with the alternative in its place (absent where no branch can run). */
  onForce?: (token: PlacedToken, alternative: TokenAlternative) => void;
  /** Runs the step again from this token with a typed text in its place. */
  onForceText?: (token: PlacedToken, text: string) => void;
  /** Why forcing is not offered, where it is not. */
  forceNote?: string;
}

/** Whether an alternative is the token sampled there: the same id where both have one, else the same text. */
export function isSampledAlternative(alternative: TokenAlternative, token: PlacedToken["token"]): boolean {
  if (alternative.id !== undefined && token.id !== undefined) return alternative.id === token.id;
  return alternative.text === token.text;
}

/** Low probability red, high green: a hue from 0 to 120 degrees. */
function tone(p: number): string {
  return `hsl(${Math.round(Math.max(0, Math.min(1, p)) * 120)} 55% 30%)`;
}

/** A token's text as the token view draws it: whitespace visible, a control token as a chip. */
export function TokenText({ text, control }: { text: string; control: boolean }) {
  const shown = text === "" ? "∅" : text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/ /g, "·");
  return <span className={control ? "tok is-control" : "tp-text"}>{visibleText(shown)}</span>;
}

/** A step of more than twice this many tokens is drawn in blocks of this many, each only near the view. */
export const TOKEN_BLOCK = 400;
/** Blocks put on the page in one task (their plain text; see TokenBlock and useMountedInBatches). */
const BLOCKS_AT_ONCE = 40;
/** A block is drawn this far before it scrolls into view. */
const DRAW_AHEAD = "1200px 0px";

interface TokenHandlers {
  isControl: (text: string) => boolean;
  show: (index: number) => void;
  togglePin: (index: number) => void;
  unpin: () => void;
}

export const TokenProbabilities = memo(function TokenProbabilities({ tokens, controlTokens, onForce, onForceText, forceNote }: TokenProbabilitiesProps) {
  const [shown, setShown] = useState<number | null>(null);
  const [typed, setTyped] = useState("");
  const [pinned, setPinned] = useState<number | null>(null);
  const active = pinned ?? shown;
  const token = active === null ? undefined : tokens[active];
  const isControl = useCallback((text: string) => controlTokens.includes(text), [controlTokens]);
  const handlers = useMemo<TokenHandlers>(
    () => ({ isControl, show: setShown, togglePin: (index) => setPinned((was) => (was === index ? null : index)), unpin: () => setPinned(null) }),
    [isControl],
  );
  // A step may hold 250,000 tokens (STEP_OUTPUT_LIMITS.tokens): drawn whole, 300,000 held the page 5 s.
  const blocks = useMemo(() => {
    if (tokens.length <= 2 * TOKEN_BLOCK) return [tokens];
    const cut: (readonly PlacedToken[])[] = [];
    for (let at = 0; at < tokens.length; at += TOKEN_BLOCK) cut.push(tokens.slice(at, at + TOKEN_BLOCK));
    return cut;
  }, [tokens]);
  const mounted = useMountedInBatches(blocks.length, BLOCKS_AT_ONCE);
  const inBlock = (block: readonly PlacedToken[], index: number | null) => (index !== null && block.length > 0 && index >= block[0]!.index && index <= block.at(-1)!.index ? index : null);
  return (
    <div className="tp-view" data-testid="token-probabilities">
      <div className="tp-tokens" aria-label="Generated tokens coloured by probability: focus one to see its alternatives">
        {blocks.length === 1 ? (
          <TokenSpans tokens={tokens} active={active} pinned={pinned} handlers={handlers} />
        ) : (
          blocks.slice(0, mounted).map((block, i) => (
            <TokenBlock key={block[0]!.index} tokens={block} drawnAtOnce={i < 2} active={inBlock(block, active)} pinned={inBlock(block, pinned)} handlers={handlers} />
          ))
        )}
      </div>
      <div className="tp-detail" data-testid="tp-alternatives" aria-live="polite">
        {token ? (
          <>
            <p className="tp-head">
              Token {token.index + 1} <TokenText text={token.token.text} control={isControl(token.token.text)} /> p = {formatP(token.token.p)}
              {token.token.id !== undefined && <span className="dbg-hint"> · id {token.token.id}</span>}
              {pinned === null && <span className="dbg-hint"> · click to keep this open</span>}
            </p>
            {token.token.top.length === 0 ? (
              <p className="dbg-hint">No alternatives were recorded at this token.</p>
            ) : (
              <table className="tp-table">
                <tbody>
                  {token.token.top.map((alternative, i) => {
                    const sampled = isSampledAlternative(alternative, token.token);
                    return (
                      <tr key={i} className={sampled ? "is-sampled" : undefined} data-testid="tp-alternative" data-sampled={sampled ? "true" : undefined} aria-current={sampled ? "true" : undefined}>
                        <td className="num" title={`p = ${alternative.p}, as recorded`} data-testid="tp-alternative-p">
                          {formatP(alternative.p)}
                        </td>
                        <td>
                          <span className="tp-bar" style={{ width: `${Math.round(alternative.p * 100)}%` }} />
                        </td>
                        <td>
                          <TokenText text={alternative.text} control={isControl(alternative.text)} />
                          {sampled && <span className="dbg-hint"> (sampled)</span>}
                        </td>
                        <td>
                          {!sampled && onForce && (
                            <button type="button" className="tp-force" onClick={() => onForce(token, alternative)} data-testid="tp-force">
                              Continue with this token
                            </button>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            {onForceText && (
              <form
                className="tp-force-text"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (typed !== "") onForceText(token, typed);
                }}
              >
                <label>
                  Or write here instead:{" "}
                  <input type="text" value={typed} onChange={(event) => setTyped(event.target.value)} placeholder="any text" data-testid="tp-force-text-input" aria-label={`Text to write in place of token ${token.index + 1}`} />
                </label>{" "}
                <button type="submit" disabled={typed === ""} data-testid="tp-force-text">
                  Continue with this text
                </button>
              </form>
            )}
            {!onForce && forceNote && <p className="dbg-hint">{forceNote}</p>}
          </>
        ) : (
          <p className="dbg-hint">Hover over or focus a token to see the alternatives the engine recorded there.</p>
        )}
      </div>
    </div>
  );
});

/** One block of a long step's tokens: their plain text until it comes near the view, then each token drawn. */
const TokenBlock = memo(function TokenBlock({ tokens, drawnAtOnce, active, pinned, handlers }: { tokens: readonly PlacedToken[]; drawnAtOnce: boolean; active: number | null; pinned: number | null; handlers: TokenHandlers }) {
  const [near, setNear] = useState(false);
  const element = useRef<HTMLDivElement>(null);
  const drawn = drawnAtOnce || near;
  useEffect(() => {
    const block = element.current;
    if (drawn || !block) return;
    // The viewport as root: scrolling ancestors clip what counts as near.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: DRAW_AHEAD });
    observer.observe(block);
    return () => observer.disconnect();
  }, [drawn]);
  return (
    <div ref={element} className="tp-block" data-drawn={drawn} data-first-token={tokens[0]?.index}>
      {drawn ? <TokenSpans tokens={tokens} active={active} pinned={pinned} handlers={handlers} /> : tokens.map((t) => t.token.text).join("")}
    </div>
  );
});

function TokenSpans({ tokens, active, pinned, handlers }: { tokens: readonly PlacedToken[]; active: number | null; pinned: number | null; handlers: TokenHandlers }) {
  return tokens.map((t) => (
    <span
      key={t.index}
      className={`tp-token${handlers.isControl(t.token.text) ? " is-control" : ""}${active === t.index ? " is-active" : ""}`}
      style={{ background: tone(t.token.p) }}
      tabIndex={0}
      role="button"
      aria-pressed={pinned === t.index}
      aria-label={`token ${t.index + 1}: ${JSON.stringify(t.token.text)}, p = ${formatP(t.token.p)}`}
      data-testid="tp-token"
      data-p={t.token.p}
      data-token-id={t.token.id}
      onMouseEnter={() => handlers.show(t.index)}
      onFocus={() => handlers.show(t.index)}
      onClick={() => handlers.togglePin(t.index)}
      onKeyDown={(event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          handlers.togglePin(t.index);
        } else if (event.key === "Escape") handlers.unpin();
      }}
    >
      {visibleText(t.token.text === "" ? "∅" : t.token.text)}
    </span>
  ));
}
