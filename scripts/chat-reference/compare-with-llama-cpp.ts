// Holds the protocol derived from a chat template against llama.cpp's own reading of the same
// text: the template writes an assistant turn (a reply alone; a reply and one call; a reply and
// two calls), the derived protocol reads it (whole, and in chunks of 1–4 characters), and
// llama.cpp's common_chat_parse reads it with the parser common_chat_templates_apply built for
// that template (chat-reference.cpp). Each side is also held against what the turn holds.
//
// `npm run --silent compare-llama-cpp [-- DIR]` prints the table of docs/protocols.md
// ("Held against llama.cpp's own parser"); DIR defaults to the llama.cpp template fixtures.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { modelOutputForTurn, roundTripShapes, chunksOf1To4, ROUND_TRIP_REPLY, ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { PROBE_USER, type ProbeCall, type TemplateRenderer } from "toolcall-middleware/derive/probes.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import { boundedTemplateRenderer, deriveFromTemplate } from "../../src/engine/templates/derived-from-template.ts";
import { chatReferenceForTests, runChatReference, type ChatReferenceMessage } from "./chat-reference.ts";

export const TEMPLATE_FIXTURES = join(import.meta.dirname, "../../src/engine/templates/llama-cpp-templates");

/** Generous: a shared machine must not fail a template for its load (the page keeps TEMPLATE_RENDER_BUDGET). */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

/** What a reading amounts to: the reply's text, the reasoning, the calls with their arguments as values. */
export interface Reading {
  text: string;
  reasoning: string;
  calls: { name: string; arguments: unknown }[];
}

export interface TurnComparison {
  /** "a reply alone", "a reply and one call", "a reply and two calls". */
  turn: string;
  /** The template's own text for the turn (what a model trained on it writes). */
  output: string;
  /** What the turn holds. */
  expected: Reading;
  /** The derived protocol's reading (whole), or undefined when nothing was derived. */
  ours?: Reading;
  /** Set when the reading in chunks of 1–4 characters differs from the whole one. */
  oursChunkedDiffers?: Reading;
  llamaCpp: Reading | { error: string };
}

export interface TemplateComparison {
  file: string;
  /** Why no protocol was derived, if none was. */
  cannotDerive?: string;
  /** Why the template wrote no turn to compare (it does not render the turns), if so. */
  noTurns?: string;
  /** The format llama.cpp chose (common_chat_format_name), or its error. */
  llamaCppFormat?: string;
  llamaCppError?: string;
  turns: TurnComparison[];
}

/** JSON with object keys sorted: arguments compare by value, not by the order a side wrote them. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

export function sameReading(a: Reading, b: Reading): boolean {
  return canonical(a) === canonical(b);
}

/** Calls and text only: what a client acts on (llama.cpp and the lab place an empty reasoning alike only by chance). */
export function sameCallsAndText(a: Reading, b: Reading): boolean {
  return canonical({ text: a.text, calls: a.calls }) === canonical({ text: b.text, calls: b.calls });
}

function ourReading(protocol: Protocol, chunks: string[]): Reading {
  const result = parseAll(protocol, ROUND_TRIP_TOOLS, chunks);
  return { text: result.text.trim(), reasoning: result.reasoning.trim(), calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments })) };
}

function llamaCppReading(message: ChatReferenceMessage): Reading {
  return {
    text: message.content.trim(),
    reasoning: message.reasoning_content.trim(),
    calls: message.tool_calls.map((c) => {
      try {
        return { name: c.name, arguments: JSON.parse(c.arguments) as unknown };
      } catch {
        return { name: c.name, arguments: c.arguments };
      }
    }),
  };
}

const TURNS: { turn: string; content: string; calls: (shapes: ProbeCall[][]) => ProbeCall[] | undefined }[] = [
  { turn: "a reply alone", content: "The weather is mild today.", calls: () => [] },
  { turn: "a reply and one call", content: ROUND_TRIP_REPLY, calls: (shapes) => shapes[0] },
  { turn: "a reply and two calls", content: ROUND_TRIP_REPLY, calls: (shapes) => shapes[1] },
];

export async function compareTemplate(binary: string, file: string, source: string): Promise<TemplateComparison> {
  const derived = deriveFromTemplate(source, file, BUDGET);
  let render: TemplateRenderer;
  try {
    render = derived.ok ? derived.render : boundedTemplateRenderer(source, `The chat template ${file}`, BUDGET);
  } catch (error) {
    return { file, cannotDerive: derived.ok ? undefined : derived.reason, noTurns: `not valid Jinja for the lab's renderer: ${(error as Error).message}`, turns: [] };
  }
  const format = derived.ok ? derived.format : undefined;
  const shapes = roundTripShapes(format);
  const turns: { turn: string; output: string; expected: Reading }[] = [];
  let renderError: string | undefined;
  for (const { turn, content, calls: pick } of TURNS) {
    const calls = pick(shapes);
    if (!calls) continue;
    let output: string;
    try {
      output = modelOutputForTurn(render, format, content, calls);
    } catch (error) {
      renderError ??= `${turn}: ${(error as Error).message}`;
      continue;
    }
    turns.push({ turn, output, expected: { text: output.includes(content) ? content : "", reasoning: "", calls: calls.map((c) => ({ name: c.name, arguments: c.arguments })) } });
  }
  const base = { file, ...(derived.ok ? {} : { cannotDerive: derived.reason }) };
  if (turns.length === 0) return { ...base, noTurns: renderError ?? "no turn rendered", turns: [] };

  const reference = await runChatReference(binary, {
    template: source,
    messages: [{ role: "user", content: PROBE_USER }],
    tools: ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t })),
    parallel_tool_calls: true,
    reasoning_format: "auto",
    outputs: turns.map((t) => t.output),
  });
  const llamaCppFormat = "error" in reference ? undefined : reference.format;
  const llamaCppError = "error" in reference ? reference.error : undefined;
  return {
    ...base,
    ...(llamaCppFormat !== undefined ? { llamaCppFormat } : {}),
    ...(llamaCppError !== undefined ? { llamaCppError } : {}),
    turns: turns.map((t, index) => {
      const parsed = "error" in reference ? { error: reference.error } : reference.parses[index]!;
      const llamaCpp = "error" in parsed ? { error: parsed.error } : llamaCppReading(parsed);
      if (!derived.ok) return { ...t, llamaCpp };
      const ours = ourReading(derived.protocol, [t.output]);
      const chunked = ourReading(derived.protocol, chunksOf1To4(t.output));
      return { ...t, ours, ...(sameReading(ours, chunked) ? {} : { oursChunkedDiffers: chunked }), llamaCpp };
    }),
  };
}

/** One word per template for the table and the test's expectations. */
export type Verdict =
  /** Both read every turn as it was written, and alike. */
  | "agree"
  /** Both read every turn alike (calls and text), but not as it was written. */
  | "agree, both wrong"
  /** The derived protocol reads every turn as written; llama.cpp does not (wrong calls or text). */
  | "llama.cpp differs"
  /** llama.cpp reads every turn as written; the derived protocol does not. */
  | "ours differs"
  /** Neither reads every turn as written, and they differ. */
  | "both differ"
  /** Nothing derived; llama.cpp reads every turn as written. */
  | "only llama.cpp reads it"
  /** Nothing derived, and llama.cpp does not read the turns as written either. */
  | "neither reads it"
  /** llama.cpp does not load or render the template. */
  | "llama.cpp refuses"
  /** The lab's renderer does not write the template's turns. */
  | "no turns";

export function verdict(comparison: TemplateComparison): Verdict {
  if (comparison.noTurns !== undefined) return "no turns";
  if (comparison.llamaCppError !== undefined) return "llama.cpp refuses";
  const right = (reading: Reading | { error: string } | undefined, expected: Reading) => reading !== undefined && !("error" in reading) && sameCallsAndText(reading, expected);
  const llamaRight = comparison.turns.every((t) => right(t.llamaCpp, t.expected));
  if (comparison.cannotDerive !== undefined) return llamaRight ? "only llama.cpp reads it" : "neither reads it";
  const oursRight = comparison.turns.every((t) => right(t.ours, t.expected) && t.oursChunkedDiffers === undefined);
  if (oursRight && llamaRight) return "agree";
  if (oursRight) return "llama.cpp differs";
  if (llamaRight) return "ours differs";
  const alike = comparison.turns.every((t) => t.ours !== undefined && !("error" in t.llamaCpp) && sameCallsAndText(t.ours, t.llamaCpp));
  return alike ? "agree, both wrong" : "both differ";
}

/** The first turn where a side strays, in a few words, for the table. */
export function firstDifference(comparison: TemplateComparison): string {
  if (comparison.noTurns !== undefined) return comparison.noTurns;
  if (comparison.llamaCppError !== undefined) {
    // llama.cpp's Jinja errors open with a blank line and a rule, and end with the error itself.
    const lines = comparison.llamaCppError.split("\n").filter((line) => /\w/.test(line));
    const last = lines.find((line) => line.startsWith("Error:")) ?? lines[0] ?? "";
    return last.slice(0, 160);
  }
  const show = (reading: Reading) => JSON.stringify({ text: reading.text, calls: reading.calls });
  for (const t of comparison.turns) {
    const parts: string[] = [];
    if ("error" in t.llamaCpp) parts.push(`llama.cpp: ${t.llamaCpp.error.slice(0, 120)}`);
    else if (!sameCallsAndText(t.llamaCpp, t.expected)) parts.push(`llama.cpp read ${show(t.llamaCpp)}`);
    if (t.ours !== undefined && !sameCallsAndText(t.ours, t.expected)) parts.push(`ours read ${show(t.ours)}`);
    if (t.oursChunkedDiffers !== undefined) parts.push(`ours in chunks read ${show(t.oursChunkedDiffers)}`);
    if (parts.length > 0) return `${t.turn}: ${parts.join("; ")}`;
  }
  return "";
}

export function templateFiles(dir: string = TEMPLATE_FIXTURES): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".jinja")).sort();
}

async function main(): Promise<number> {
  const dir = process.argv[2] ?? TEMPLATE_FIXTURES;
  const reference = chatReferenceForTests();
  if (!reference.run) {
    process.stderr.write(`${reference.why}\n`);
    return 1;
  }
  const rows: string[] = ["| Template | llama.cpp's format | Result | First difference |", "|---|---|---|---|"];
  const counts = new Map<Verdict, number>();
  for (const file of templateFiles(dir)) {
    const comparison = await compareTemplate(reference.binary, file, readFileSync(join(dir, file), "utf8"));
    const result = verdict(comparison);
    counts.set(result, (counts.get(result) ?? 0) + 1);
    const difference = firstDifference(comparison).replaceAll("|", "\\|").replaceAll("\n", "\\n");
    rows.push(`| ${file} | ${comparison.llamaCppFormat ?? "—"} | ${result} | ${difference ? `\`${difference.replaceAll("`", "'")}\`` : ""} |`);
  }
  process.stdout.write(`${rows.join("\n")}\n\n${[...counts].map(([v, n]) => `${v}: ${n}`).join(", ")}\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
