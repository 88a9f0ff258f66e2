// The exact prompt the model read: control tokens as chips, the tool block folded, and on
// request only what this step added to the previous step's prompt.
import { createContext, memo, useContext, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { requestMessageTexts, requestToolNames, SERVER_PROMPT_CHARS, toolsLeftOut } from "toolcall-middleware/native/server-prompt.ts";
import { visibleName, visibleText } from "../bidi/VisibleBidi.tsx";
import type { StepView } from "./build-steps.ts";
import { CopyButton } from "./CopyButton.tsx";
import { useMountedInBatches } from "./use-mounted-in-batches.ts";
import { stepLabel } from "./format.ts";
import { controlTokenPattern, cutAtSpans, markMcpResources, promptChangesSince, promptOriginSpans, segmentPrompt, splitControlTokens, type PromptOriginSpan, type PromptPiece, type Span } from "./prompt-segments.ts";
import { PROMPT_RUN_CHARS, promptRuns, runText, type PromptRun } from "./prompt-runs.ts";
import { PromptTokenCounts } from "../tokens/PromptTokenCounts.tsx";
import { TokensOf, TokenViewToggle } from "../tokens/TokenViewToggle.tsx";

interface PromptViewProps {
  step: StepView;
  previous: StepView | undefined;
  controlTokens: readonly string[];
  /** Where the tool block sits in the whole prompt, as recorded. */
  toolBlock: Span | null;
  /** Says what the log did not record and today's code stands in for. */
  note: string | null;
}

/** The spans of the prompt shown that hold messages an MCP prompt gave (offsets as the pieces' `start`). */
const OriginSpans = createContext<readonly PromptOriginSpan[]>([]);

export const PromptView = memo(function PromptView(props: PromptViewProps) {
  return props.step.request ? <NativeRequestView request={props.step.request} serverPrompt={props.step.serverPrompt} /> : <PromptTextView {...props} />;
});

/** Native tool calling: the server wrote the prompt; what we know is the request we sent, and what the server said it rendered. */
function NativeRequestView({ request, serverPrompt }: { request: Record<string, unknown>; serverPrompt: StepView["serverPrompt"] }) {
  const json = useMemo(() => JSON.stringify(request, null, 2), [request]);
  return (
    // One cell of the step's grid: the rendered prompt above the request it came from.
    <div className="dbg-native-prompt">
      {serverPrompt && <ServerPromptView request={request} serverPrompt={serverPrompt} />}
      <NativeRequestPanel json={json} rendered={serverPrompt !== undefined && "text" in serverPrompt} />
    </div>
  );
}

/** The prompt llama.cpp's template rendered from the request (its /apply-template), and whether the tools made it in. */
function ServerPromptView({ request, serverPrompt }: { request: Record<string, unknown>; serverPrompt: NonNullable<StepView["serverPrompt"]> }) {
  if ("error" in serverPrompt)
    return (
      <p className="dbg-note" data-testid="server-prompt-error">
        The server was asked for the prompt it renders from this request and could not say: {serverPrompt.error}.
      </p>
    );
  return <ServerPromptText request={request} text={serverPrompt.text} cutChars={serverPrompt.cutChars ?? 0} />;
}

function ServerPromptText({ request, text, cutChars }: { request: Record<string, unknown>; text: string; cutChars: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const names = useMemo(() => requestToolNames(request), [request]);
  const missing = useMemo(() => toolsLeftOut(text, names, requestMessageTexts(request)), [text, names, request]);
  // Drawn like the step's own prompt: in runs, each with its chips only near the view. The server
  // wrote this text, so it may be a million characters of direction controls (each one a mark).
  const body = useMemo(() => {
    const pieces = splitControlTokens(text, controlTokenPattern());
    return text.length > 2 * PROMPT_RUN_CHARS ? <PromptRuns runs={promptRuns(pieces)} scroller={scroller} /> : <PromptPieces pieces={pieces} />;
  }, [text]);
  return (
    <section className="dbg-panel" aria-label="Prompt the server rendered">
      <header className="dbg-panel-head">
        <h3>Prompt</h3>
        <span className="dbg-hint">rendered by the server (llama.cpp /apply-template) · {text.length.toLocaleString()} chars</span>
        <CopyButton text={text} label="prompt" />
      </header>
      {cutChars > 0 && (
        <p className="dbg-step-note" role="status" data-testid="server-prompt-cut">
          The server&apos;s answer was {(text.length + cutChars).toLocaleString()} characters long; the step kept the first {text.length.toLocaleString()} (at most{" "}
          {SERVER_PROMPT_CHARS.toLocaleString()}) and left out the last {cutChars.toLocaleString()}.
        </p>
      )}
      {names.length > 0 && missing.length === names.length && (
        <p className="dbg-step-note" role="status" data-testid="native-tools-dropped">
          The server&apos;s chat template left the tools out: none of the {names.length} tool names sent is in the prompt (outside the conversation&apos;s own words), so the model never saw them. This model&apos;s
          template has no tools section; prompt mode writes the tools into the prompt itself.
        </p>
      )}
      {missing.length > 0 && missing.length < names.length && (
        <p className="dbg-step-note" role="status" data-testid="native-tools-dropped">
          {missing.length} of the {names.length} tools sent are not named in the prompt (outside the conversation&apos;s own words): {missing.join(", ")}.
        </p>
      )}
      <div ref={scroller} className="dbg-panel-body dbg-text" data-testid="server-prompt">
        {body}
      </div>
    </section>
  );
}

function NativeRequestPanel({ json, rendered }: { json: string; rendered: boolean }) {
  return (
    <section className="dbg-panel" aria-label="Request">
      <header className="dbg-panel-head">
        <h3>Request</h3>
        <span className="dbg-hint">native tool calling · {json.length.toLocaleString()} chars</span>
        <CopyButton text={json} label="request" />
      </header>
      <p className="dbg-note" data-testid="native-request-note">
        {rendered ? "The server rendered the prompt above from this request" : "No prompt text exists on our side: the server rendered the prompt"} with its own chat template and read
        the calls with its own parser. This is the request it was sent.
      </p>
      <pre className="dbg-panel-body dbg-text" data-testid="native-request">
        {json}
      </pre>
    </section>
  );
}

function PromptTextView({ step, previous, controlTokens, toolBlock, note }: PromptViewProps) {
  const [changesOnly, setChangesOnly] = useState(false);
  const [tokens, setTokens] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const changes = useMemo(
    () => (changesOnly && previous ? promptChangesSince(previous.prompt, step.prompt) : null),
    [changesOnly, previous, step.prompt],
  );
  // The body depends on the prompt text only: a streaming step's object changes with every
  // chunk, and re-rendering a long prompt that did not change would be wasted work.
  const spans = useMemo(() => {
    const shift = changes ? changes.hiddenChars : 0;
    return promptOriginSpans(step.prompt, step.messages)
      .filter((span) => span.start >= shift)
      .map((span) => ({ ...span, start: span.start - shift, end: span.end - shift }));
  }, [changes, step.prompt, step.messages]);
  const body = useMemo(() => {
    // The block's offsets are into the whole prompt; the changes view shows only its tail.
    const shift = changes ? changes.hiddenChars : 0;
    const block = toolBlock && toolBlock.start >= shift ? { start: toolBlock.start - shift, end: toolBlock.end - shift } : null;
    const text = changes ? changes.added : step.prompt;
    const pieces = segmentPrompt(text, controlTokens, block);
    return text.length > 2 * PROMPT_RUN_CHARS ? <PromptRuns runs={promptRuns(pieces)} scroller={scroller} /> : <PromptPieces pieces={pieces} />;
  }, [changes, step.prompt, controlTokens, toolBlock]);

  return (
    <section className="dbg-panel" aria-label="Prompt">
      <header className="dbg-panel-head">
        <h3>Prompt</h3>
        <span className="dbg-hint">
          {step.template} · {step.prompt.length.toLocaleString()} chars
        </span>
        <label className={`dbg-toggle${previous ? "" : " is-disabled"}`} title={previous ? undefined : "The first step of a run has no previous step."}>
          <input type="checkbox" checked={changesOnly} disabled={!previous} onChange={(e) => setChangesOnly(e.target.checked)} />
          changes since previous step
        </label>
        <TokenViewToggle on={tokens} onChange={setTokens} />
      </header>
      <PromptTokenCounts step={step} controlTokens={controlTokens} toolBlock={toolBlock} />
      {note && (
        <p className="dbg-note" data-testid="prompt-not-recorded-note">
          {note}
        </p>
      )}
      {changes && previous && (
        <p className="dbg-note" data-testid="prompt-diff-note">
          Hidden: the first {changes.hiddenChars.toLocaleString()} characters ({changes.hiddenLines} lines), the same as in the prompt of{" "}
          {stepLabel(previous).toLowerCase()}.
          {changes.droppedChars > 0 && ` That prompt had ${changes.droppedChars.toLocaleString()} more characters after that point that this prompt does not.`}
          {changes.added.length === 0 && " Nothing was added."}
        </p>
      )}
      <div ref={scroller} className="dbg-panel-body dbg-text" data-testid="prompt-view">
        {step.prompt.length === 0 ? (
          <p className="dbg-empty">This step's prompt is empty.</p>
        ) : tokens ? (
          <TokensOf text={changes ? changes.added : step.prompt} template={step.template} controlTokens={controlTokens} />
        ) : (
          <OriginSpans.Provider value={spans}>{body}</OriginSpans.Provider>
        )}
      </div>
    </section>
  );
}

/** Runs drawn with their chips from the start: the top of the prompt, in view when it opens. */
const RUNS_DRAWN_AT_ONCE = 1;
/** Runs put on the page in one task (250 runs of a server's 1,000,000-character prompt at once: 0.4 s). */
const RUNS_AT_ONCE = 40;
/** A run is drawn this far before it scrolls into the panel's view. */
const DRAW_AHEAD = "1200px 0px";

function PromptRuns({ runs, scroller }: { runs: PromptRun[]; scroller: RefObject<HTMLDivElement | null> }) {
  const mounted = useMountedInBatches(runs.length, RUNS_AT_ONCE);
  return (
    <>
      {runs.slice(0, mounted).map((run, index) => (
        <PromptRunBlock key={run.start} run={run} drawn={index < RUNS_DRAWN_AT_ONCE || run.pieces.some((p) => p.kind === "tools")} scroller={scroller} />
      ))}
    </>
  );
}

/** One run: its plain text until it comes near the panel's view, then its pieces (chips, bidi marks shown). */
const PromptRunBlock = memo(function PromptRunBlock({ run, drawn: drawnAtOnce, scroller }: { run: PromptRun; drawn: boolean; scroller: RefObject<HTMLDivElement | null> }) {
  const [near, setNear] = useState(false);
  const block = useRef<HTMLDivElement>(null);
  const drawn = drawnAtOnce || near;
  useEffect(() => {
    const element = block.current;
    if (drawn || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { root: scroller.current, rootMargin: DRAW_AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, [drawn, scroller]);
  return (
    <div ref={block} className="dbg-prompt-run" data-start={run.start} data-drawn={drawn}>
      {drawn ? <PromptPieces pieces={run.pieces} /> : runText(run)}
    </div>
  );
});

function PromptPieces({ pieces }: { pieces: PromptPiece[] }) {
  const spans = useContext(OriginSpans);
  return (
    <>
      {pieces.map((piece) => {
        if (piece.kind === "token")
          return (
            <span key={piece.start} className="dbg-token" data-testid="control-token">
              {piece.text}
            </span>
          );
        if (piece.kind === "text" && spans.length > 0) return <span key={piece.start}>{cutAtSpans(piece.text, piece.start, spans).map(drawOrigin)}</span>;
        if (piece.kind === "text") return <span key={piece.start}>{markMcpResources(piece.text).map(drawMarked)}</span>;
        return (
          <details key={piece.start} className="dbg-toolblock" data-testid="prompt-tool-block">
            <summary>Tool block · {piece.length.toLocaleString()} chars (click to show)</summary>
            <PromptPieces pieces={piece.pieces} />
          </details>
        );
      })}
    </>
  );
}

/** A message an MCP prompt gave, outlined, with a chip naming the prompt and its server where it starts. */
function drawOrigin(part: ReturnType<typeof cutAtSpans>[number], index: number) {
  const text = markMcpResources(part.text).map(drawMarked);
  if (!part.span) return <span key={index}>{text}</span>;
  return (
    <span key={index} className="prompt-mcp-prompt" data-testid={part.opens ? "prompt-mcp-prompt" : undefined} data-server={part.span.server} data-prompt={part.span.prompt} data-role={part.span.role}>
      {part.opens && (
        <span className="prompt-mcp-origin">
          {part.span.role} message of MCP prompt {visibleName(part.span.prompt)} from {visibleName(part.span.server)}
        </span>
      )}
      {text}
    </span>
  );
}

/** Text, with an attached MCP resource's markers drawn as chips naming the server it came from. */
function drawMarked(part: ReturnType<typeof markMcpResources>[number], index: number) {
  if (part.kind === "text") return <span key={index}>{visibleText(part.text)}</span>;
  if (part.kind === "resource-close")
    return (
      <span key={index} className="prompt-mcp-resource" title={part.text}>
        <span className="prompt-mcp-origin">end of MCP resource</span>
        {part.text}
      </span>
    );
  return (
    <span key={index} className="prompt-mcp-resource" data-testid="prompt-mcp-resource" data-server={part.server} title={part.text}>
      <span className="prompt-mcp-origin">
        MCP resource from {visibleName(part.server)}
      </span>
      {visibleText(part.text)}
    </span>
  );
}
