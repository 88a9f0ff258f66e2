// The parser playground (/?view=playground): paste or drop a raw model output, pick a protocol
// and tools, and see the parse events and calls as you type, parsed in a worker. A chunking
// control streams the output in other cuts and says whether the stream gives what one pass
// gives. The whole state can be copied as a link (compressed into the URL's hash).
import "./playground.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLabStores, useMcpServers } from "../../app/lab-stores-context.tsx";
import { describeChunking, type Chunking } from "../../experiments/chunking.ts";
import { AUTO_PROTOCOL, TEMPLATE_PROTOCOL, type PlaygroundResult } from "../../experiments/playground-parse.ts";
import { decodePlaygroundLink, encodePlaygroundLink, type PlaygroundState } from "../../experiments/share-link.ts";
import { readPastedTools } from "../../experiments/tool-source.ts";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { defaultSettings } from "../../domain/conversation.ts";
import { toSpecs } from "../../store/tool-catalog.ts";
import { summarizeParseEvent, toDisplayJson } from "../debugger/format.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { McpPanel } from "../mcp/McpPanel.tsx";
import { PlaygroundRunner } from "./playground-runner.ts";
import { PlaygroundLean } from "./PlaygroundLean.tsx";

/** Typing pauses this long before a parse is asked for: a keystroke in a megabyte is not re-parsed at once. */
const PARSE_DEBOUNCE_MS = 120;
/** Rows of parse events drawn; the count says how many there are. */
const EVENT_ROWS = 150;
/** Past this many characters the output box stops wrapping lines. */
const LARGE_OUTPUT_CHARS = 100_000;

const SAMPLE = 'I will look up the time in Paris.\n<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}\n</tool_call>';

type ToolSource = PlaygroundState["toolSource"];

export function Playground() {
  const protocols = useMemo(() => listProtocols(), []);
  const outputRef = useRef<HTMLTextAreaElement>(null);
  const [outputChars, setOutputChars] = useState(SAMPLE.length);
  const [protocol, setProtocol] = useState(protocols[0]?.name ?? "hermes");
  const [toolSource, setToolSource] = useState<ToolSource>("built-in");
  const [pastedTools, setPastedTools] = useState("");
  const [chunking, setChunking] = useState<Chunking>({ kind: "whole" });
  const [strict, setStrict] = useState(false);
  const [template, setTemplate] = useState("");
  const [result, setResult] = useState<PlaygroundResult | null>(null);
  const [outputVersion, setOutputVersion] = useState(0);
  const [linkMessage, setLinkMessage] = useState<{ tone: "ok" | "err"; text: string } | null>(null);
  const { mcp, tools: toolCatalog } = useLabStores();
  const mcpServers = useMcpServers((s) => s.servers);

  const builtIn = useMemo(() => toSpecs(toolCatalog.allTools(defaultSettings, [])), [toolCatalog]);
  const mcpTools = useMemo(() => toSpecs(toolCatalog.allTools(defaultSettings, mcpServers)).slice(builtIn.length), [toolCatalog, mcpServers, builtIn]);
  const pasted = useMemo(() => readPastedTools(pastedTools), [pastedTools]);
  const tools = useMemo<ToolSpec[]>(
    () => (toolSource === "built-in" ? builtIn : toolSource === "mcp" ? mcpTools : "tools" in pasted ? pasted.tools : []),
    [toolSource, builtIn, mcpTools, pasted],
  );

  const runner = useRef<PlaygroundRunner | null>(null);
  useEffect(() => {
    const created = new PlaygroundRunner(setResult);
    runner.current = created;
    return () => created.dispose();
  }, []);
  useEffect(() => mcp.actions.restore(), [mcp]);

  // A link's state, read at opening and when another link is opened in this page.
  useEffect(() => {
    const load = () => void decodePlaygroundLink(location.hash).then((decoded) => {
      if (!decoded) return;
      if ("error" in decoded) {
        setLinkMessage({ tone: "err", text: decoded.error });
        return;
      }
      const { state } = decoded;
      if (outputRef.current) outputRef.current.value = state.output;
      setOutputChars(state.output.length);
      setProtocol(state.protocol);
      setToolSource(state.toolSource);
      setPastedTools(state.pastedTools);
      setChunking(state.chunking);
      setStrict(state.strict ?? false);
      setOutputVersion((v) => v + 1);
    });
    load();
    window.addEventListener("hashchange", load);
    return () => window.removeEventListener("hashchange", load);
  }, []);

  // Parse when anything changes; the output's changes come debounced.
  useEffect(() => {
    const output = outputRef.current?.value ?? "";
    runner.current?.parse({ output, protocol, tools, chunking, strict, ...(protocol === TEMPLATE_PROTOCOL ? { template } : {}) });
  }, [protocol, tools, chunking, strict, outputVersion, template]);

  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onOutputInput = useCallback(() => {
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => {
      setOutputChars(outputRef.current?.value.length ?? 0);
      setOutputVersion((v) => v + 1);
    }, PARSE_DEBOUNCE_MS);
  }, []);

  const onDrop = useCallback((event: React.DragEvent) => {
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    void file.text().then((text) => {
      if (outputRef.current) outputRef.current.value = text;
      setOutputChars(text.length);
      setOutputVersion((v) => v + 1);
    });
  }, []);

  const onShare = useCallback(async () => {
    const state: PlaygroundState = { output: outputRef.current?.value ?? "", protocol, toolSource, pastedTools, chunking, ...(strict ? { strict } : {}) };
    const encoded = await encodePlaygroundLink(state);
    if ("error" in encoded) {
      setLinkMessage({ tone: "err", text: encoded.error });
      return;
    }
    history.replaceState(null, "", `${location.pathname}${location.search}${encoded.hash}`);
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      setLinkMessage({ tone: "ok", text: `Link copied (${link.length.toLocaleString("en")} characters).` });
    } catch {
      setLinkMessage({ tone: "ok", text: `The link is in the address bar (${link.length.toLocaleString("en")} characters).` });
    }
  }, [protocol, toolSource, pastedTools, chunking, strict]);

  return (
    <div className="pg">
      <header className="app-header">
        <h1 className="brand">Toolcall Lab · Parser playground</h1>
        <a href="./" className="pg-back">
          Back to the lab
        </a>
      </header>
      <div className="pg-body">
        <section className="pg-inputs" aria-label="Input">
          <div className="pg-controls">
            <label>
              Protocol{" "}
              <select data-testid="playground-protocol" value={protocol} onChange={(e) => setProtocol(e.target.value)}>
                <option value={AUTO_PROTOCOL}>Auto (name the format: every protocol's parser reads it)</option>
                <option value={TEMPLATE_PROTOCOL}>Derived from a pasted chat template</option>
                {protocols.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Tools{" "}
              <select data-testid="playground-tool-source" value={toolSource} onChange={(e) => setToolSource(e.target.value as ToolSource)}>
                <option value="built-in">built-in ({builtIn.length})</option>
                <option value="mcp">MCP servers ({mcpTools.length})</option>
                <option value="pasted">pasted definitions</option>
              </select>
            </label>
            <label>
              Chunking{" "}
              <select
                data-testid="playground-chunking"
                value={chunking.kind}
                onChange={(e) => {
                  const kind = e.target.value;
                  setChunking(kind === "random" ? { kind: "random", seed: 1 } : kind === "char" ? { kind: "char" } : { kind: "whole" });
                }}
              >
                <option value="whole">whole (one pass)</option>
                <option value="char">one character</option>
                <option value="random">random, seeded</option>
              </select>
            </label>
            {chunking.kind === "random" && (
              <label>
                Seed{" "}
                <input
                  type="number"
                  className="pg-seed"
                  data-testid="playground-seed"
                  value={chunking.seed}
                  onChange={(e) => setChunking({ kind: "random", seed: Math.trunc(Number(e.target.value) || 0) })}
                />
              </label>
            )}
            {/* The same reading as the debugger's re-parse "strict" (experiments/reparse.ts). */}
            <label title="No repairs and no lenient readings: a call must be written as the protocol writes calls">
              <input type="checkbox" data-testid="playground-strict" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> strict
            </label>
            <button type="button" data-testid="playground-share" onClick={() => void onShare()}>
              Copy link
            </button>
          </div>
          {linkMessage && (
            <p className={`pg-note pg-note-${linkMessage.tone}`} role={linkMessage.tone === "err" ? "alert" : "status"} data-testid="playground-link-message">
              {linkMessage.text}
            </p>
          )}
          {toolSource === "pasted" && (
            <>
              <textarea
                className="pg-tools mono"
                data-testid="playground-tools"
                spellCheck={false}
                placeholder='OpenAI tools ([{"type": "function", "function": {...}}]) or JSON Schema definitions ([{"name", "description", "parameters"}])'
                value={pastedTools}
                onChange={(e) => setPastedTools(e.target.value)}
              />
              {"error" in pasted && (
                <p className="pg-note pg-note-err" role="alert" data-testid="playground-tools-error">
                  {pasted.error}
                </p>
              )}
            </>
          )}
          {protocol === TEMPLATE_PROTOCOL && (
            <>
              <label className="pg-label" htmlFor="pg-template">
                Chat template (Jinja) — the protocol is derived from how it writes tool calls
              </label>
              <textarea
                id="pg-template"
                className="pg-tools mono"
                data-testid="playground-template"
                spellCheck={false}
                placeholder="Paste a model's chat template (tokenizer_config.json's chat_template, or a .jinja file)"
                value={template}
                onChange={(e) => setTemplate(e.target.value)}
              />
            </>
          )}
          {toolSource === "mcp" && (
            <details className="pg-mcp" open={mcpTools.length === 0}>
              <summary>MCP servers</summary>
              <McpPanel />
            </details>
          )}
          <label className="pg-label" htmlFor="pg-output">
            Raw model output ({outputChars.toLocaleString("en")} characters) — paste, type, or drop a file
          </label>
          <textarea
            id="pg-output"
            ref={outputRef}
            className="pg-output mono"
            data-testid="playground-output"
            spellCheck={false}
            // Wrapping a megabyte of long lines costs the browser a long layout per keystroke.
            wrap={outputChars > LARGE_OUTPUT_CHARS ? "off" : "soft"}
            defaultValue={SAMPLE}
            onInput={onOutputInput}
            onDragOver={(e) => e.preventDefault()}
            onDrop={onDrop}
          />
          <PlaygroundLean tools={tools} protocol={protocol === AUTO_PROTOCOL ? undefined : protocol} />
        </section>
        <section className="pg-results" aria-label="Parse">
          {result && <PlaygroundResultView result={result} chunking={chunking} strict={strict} />}
        </section>
      </div>
    </div>
  );
}

function PlaygroundResultView({ result, chunking, strict }: { result: PlaygroundResult; chunking: Chunking; strict: boolean }) {
  if (result.error) {
    return (
      <p className="pg-note pg-note-err" role="alert" data-testid="playground-error">
        {result.error}
      </p>
    );
  }
  const { calls, errors, repairs } = result.result;
  if (result.derivation && !result.derivation.ok) {
    return (
      <p className="pg-note pg-note-err" role="alert" data-testid="playground-derivation" data-derived="false">
        {result.derivation.lines.join(" ")}
      </p>
    );
  }
  return (
    <>
      {result.derivation && (
        <div className="pg-note pg-note-ok" data-testid="playground-derivation" data-derived="true" role="status">
          <strong>Derived from the template:</strong>
          <ul className="pg-derivation">
            {result.derivation.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {result.detected && (
        <p className="pg-note" data-testid="playground-detected" role="status">
          {result.detected.length === 0
            ? "Auto: no protocol's parser found a call in this output (shown as Hermes reads it)."
            : `Auto: calls found by ${result.detected.join(", ")}; shown as ${result.protocol} reads it.`}
        </p>
      )}
      <p className={`pg-note ${result.agrees ? "pg-note-ok" : "pg-note-err"}`} data-testid="playground-agreement" data-agrees={String(result.agrees)} role="status">
        {chunking.kind === "whole"
          ? `Parsed in one pass with ${result.protocol}${strict ? ", strictly (no repairs, no lenient readings)" : ""} (${result.ms.toFixed(0)} ms).`
          : result.agrees
            ? `Streamed as ${describeChunking(chunking)} (${result.chunkCount.toLocaleString("en")} chunks): the same calls, text and errors as one pass.`
            : visibleBidi(result.difference ?? "The stream differs from one pass.")}
      </p>
      <h3 className="pg-heading">Calls ({calls.length})</h3>
      <ol className="pg-calls" data-testid="playground-calls" data-count={calls.length}>
        {calls.map((call) => (
          <li key={call.id} data-testid="playground-call" className="mono">
            {visibleBidi(`${call.name} ${toDisplayJson(call.arguments)}`)}
          </li>
        ))}
        {calls.length === 0 && <li className="pg-muted">No call.</li>}
      </ol>
      {(errors.length > 0 || repairs.length > 0) && (
        <ul className="pg-problems" data-testid="playground-problems">
          {errors.map((error, i) => (
            <li key={`e${i}`} className="pg-error">
              <strong>{error.kind}</strong> — {visibleBidi(error.message)}
            </li>
          ))}
          {repairs.map((repair, i) => (
            <li key={`r${i}`} className="pg-repair">
              <strong>repair: {repair.kind}</strong> — {visibleBidi(repair.message)}
            </li>
          ))}
        </ul>
      )}
      <h3 className="pg-heading">
        Parse events ({result.eventCount.toLocaleString("en")}
        {result.eventCount > EVENT_ROWS ? `, first ${EVENT_ROWS} shown` : ""})
      </h3>
      <ol className="pg-events" data-testid="playground-events">
        {result.events.slice(0, EVENT_ROWS).map((event, i) => (
          <li key={i} className="mono" data-type={event.type}>
            <span className="pg-event-type">{event.type}</span> <span className="pg-muted">{event.span.start}–{event.span.end}</span> {visibleBidi(summarizeParseEvent(event))}
          </li>
        ))}
      </ol>
    </>
  );
}
