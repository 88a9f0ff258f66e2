// The model's raw text, coloured by what the parser made of each stretch; a click selects the
// parse event under it, and the selected event's span is highlighted.
import { memo, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { TokensOf, TokenViewToggle } from "../tokens/TokenViewToggle.tsx";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import type { StepView } from "./build-steps.ts";
import { TokenProbabilities } from "./TokenProbabilities.tsx";
import { useForceToken } from "./use-force-token.ts";
import { chunkRawOutput, parseEventAt, segmentRawOutput, type RawChunk, type RawSegment, type SegmentKind } from "./raw-output-spans.ts";

/** Raw output longer than twice this is drawn in runs of whole lines of about this many characters. */
export const RAW_CHUNK_CHARS = 4_000;

const LEGEND: { kind: SegmentKind; label: string }[] = [
  { kind: "text", label: "text" },
  { kind: "reasoning", label: "reasoning" },
  { kind: "tool-call", label: "tool call" },
  { kind: "repaired", label: "repaired" },
  { kind: "error", label: "error" },
  { kind: "unparsed", label: "not parsed (yet)" },
];

interface RawOutputViewProps {
  step: StepView;
  /** The tools of the step's run (a forced branch offers the same). */
  tools: readonly ToolSpec[];
  /** The template's control tokens (marked in the token view). */
  controlTokens: readonly string[];
  selectedParseIndex: number | null;
  onSelectParseEvent: (index: number | null) => void;
}

/**
 * The offset within a segment of a caret position: a segment with bidi marks is cut into
 * pieces that say where they start, and a caret inside a mark stands for the mark's character.
 */
function offsetInSegment(node: Node, offset: number, segment: Element): number {
  const element = node instanceof Element ? node : node.parentElement;
  const piece = element?.closest("[data-piece-start]");
  if (!piece || !segment.contains(piece)) return offset;
  const start = Number(piece.getAttribute("data-piece-start"));
  return piece.classList.contains("bidi-mark") ? start : start + offset;
}

/** Offset of a click within the text, from the caret position under the pointer. */
function clickOffset(event: MouseEvent, segmentStart: number): number {
  const doc = document as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null };
  const segment = event.currentTarget;
  const position = document.caretPositionFromPoint?.(event.clientX, event.clientY);
  if (position && segment.contains(position.offsetNode)) return segmentStart + offsetInSegment(position.offsetNode, position.offset, segment);
  const range = doc.caretRangeFromPoint?.(event.clientX, event.clientY);
  if (range && segment.contains(range.startContainer)) return segmentStart + offsetInSegment(range.startContainer, range.startOffset, segment);
  return segmentStart;
}

/** Re-encoding text need not give the ids the model sampled: said where the token view shows output. */
const REENCODED_NOTE = "Re-encoded from the text: the model may have sampled other ids that spell the same text.";

export const RawOutputView = memo(function RawOutputView({ step, tools, controlTokens, selectedParseIndex, onSelectParseEvent }: RawOutputViewProps) {
  const [tokens, setTokens] = useState(false);
  const [probabilities, setProbabilities] = useState(false);
  const force = useForceToken(step, tools);
  const hasProbabilities = step.tokens.length > 0;
  const selected = selectedParseIndex === null ? undefined : step.parseEvents[selectedParseIndex];
  const highlight = selected?.event.span ?? null;
  const segments = useMemo(
    () => segmentRawOutput(step.rawOutput.length, step.parseEvents, highlight),
    [step.rawOutput.length, step.parseEvents, highlight],
  );
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    body.current?.querySelector('[data-highlighted="true"]')?.scrollIntoView({ block: "nearest" });
  }, [highlight]);

  const live = step.status === "running";
  return (
    <section className="dbg-panel" aria-label="Raw output">
      <header className="dbg-panel-head">
        <h3>Raw output</h3>
        <span className="dbg-hint">
          {step.rawOutput.length.toLocaleString()} chars{live && <span className="dbg-live"> · streaming</span>}
        </span>
        {hasProbabilities && (
          <button type="button" className="dbg-toggle" aria-pressed={probabilities} data-testid="probabilities-toggle" onClick={() => setProbabilities(!probabilities)}>
            Probabilities
          </button>
        )}
        <TokenViewToggle on={tokens} onChange={setTokens} />
      </header>
      {probabilities && hasProbabilities ? (
        <div className="dbg-legend" aria-label="Colour key">
          <span className="tp-token" style={{ background: "hsl(0 55% 30%)" }}>
            p near 0
          </span>
          <span className="tp-token" style={{ background: "hsl(60 55% 30%)" }}>
            p = 0.5
          </span>
          <span className="tp-token" style={{ background: "hsl(120 55% 30%)" }}>
            p near 1
          </span>
        </div>
      ) : (
        <div className="dbg-legend" aria-label="Colour key">
          {LEGEND.map(({ kind, label }) => (
            <span key={kind} className={`dbg-seg kind-${kind}`}>
              {label}
            </span>
          ))}
        </div>
      )}
      <div ref={body} className="dbg-panel-body dbg-panel-body-fit dbg-text" data-testid="raw-output-view" aria-live="off">
        {step.rawOutput.length === 0 ? (
          <p className="dbg-empty">{live ? "Waiting for the model's first token…" : "The model produced no text in this step."}</p>
        ) : probabilities && hasProbabilities ? (
          <>
            <TokenProbabilities
              tokens={step.tokens}
              controlTokens={controlTokens}
              {...(force.onForce ? { onForce: force.onForce } : {})}
              {...(force.onForceText ? { onForceText: force.onForceText } : {})}
              {...(force.note ? { forceNote: force.note } : {})}
            />
            {force.message && (
              <p className="dbg-hint" role="status" data-testid="force-status">
                {force.message}
                {force.onStop && (
                  <>
                    {" "}
                    <button type="button" onClick={force.onStop} data-testid="force-stop" title="Stop (Esc)">
                      Stop
                    </button>
                  </>
                )}
              </p>
            )}
          </>
        ) : tokens ? (
          <TokensOf text={step.rawOutput} template={step.template} controlTokens={controlTokens} note={REENCODED_NOTE} />
        ) : (
          <RawText text={step.rawOutput} segments={segments} events={step.parseEvents} onSelectParseEvent={onSelectParseEvent} />
        )}
      </div>
    </section>
  );
});

interface RawTextProps {
  text: string;
  segments: RawSegment[];
  events: StepView["parseEvents"];
  onSelectParseEvent: (index: number | null) => void;
}

/** What a click at a character offset selects (the parse event under it). */
type SelectAt = (offset: number) => void;

function drawSegments(text: string, segments: RawSegment[], selectAt: SelectAt) {
  return segments.map((segment) => (
    <span
      // Keyed by start only: the growing last segment of a live stream keeps its element.
      key={segment.start === segment.end ? `${segment.start}:caret` : segment.start}
      className={`dbg-seg kind-${segment.kind}${segment.highlighted ? " is-highlighted" : ""}${segment.start === segment.end ? " is-empty" : ""}`}
      data-kind={segment.kind}
      data-start={segment.start}
      data-highlighted={segment.highlighted ? "true" : undefined}
      onClick={(event) => selectAt(clickOffset(event, segment.start))}
    >
      {visibleBidi(text.slice(segment.start, segment.end))}
    </span>
  ));
}

/** A run of lines: redrawn only when its text or colouring changes (the growing last run, a new highlight). */
const RawRun = memo(
  function RawRun({ chunk, text, selectAt }: { chunk: RawChunk; text: string; selectAt: SelectAt }) {
    return (
      <div className="dbg-raw-run" data-start={chunk.start}>
        {drawSegments(text, chunk.segments, selectAt)}
      </div>
    );
  },
  (before, after) =>
    before.chunk.start === after.chunk.start &&
    before.chunk.end === after.chunk.end &&
    before.selectAt === after.selectAt &&
    before.chunk.segments.length === after.chunk.segments.length &&
    before.chunk.segments.every((s, i) => {
      const t = after.chunk.segments[i]!;
      return s.start === t.start && s.end === t.end && s.kind === t.kind && s.highlighted === t.highlighted;
    }) &&
    before.text.slice(before.chunk.start, before.chunk.end) === after.text.slice(after.chunk.start, after.chunk.end),
);

function RawText({ text, segments, events, onSelectParseEvent }: RawTextProps) {
  // The latest events, read at click time, so a run's element need not change as events arrive.
  const latest = useRef({ events, onSelectParseEvent });
  useEffect(() => {
    latest.current = { events, onSelectParseEvent };
  });
  const selectAt = useCallback<SelectAt>((offset) => latest.current.onSelectParseEvent(parseEventAt(latest.current.events, offset)), []);
  const chunks = useMemo(() => (text.length > 2 * RAW_CHUNK_CHARS ? chunkRawOutput(text, segments, RAW_CHUNK_CHARS) : null), [text, segments]);
  if (!chunks) return <>{drawSegments(text, segments, selectAt)}</>;
  return (
    <>
      {chunks.map((chunk) => (
        <RawRun key={chunk.start} chunk={chunk} text={text} selectAt={selectAt} />
      ))}
    </>
  );
}
