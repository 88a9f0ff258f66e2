// Holds a derived protocol against its own template: the template writes an assistant turn with
// calls (as a model trained on it would write it), and the derived protocol reads it back, whole
// and streamed in chunks of 1–4 characters; the calls' names and arguments and the text must
// come back as they went in.
import { parseAll } from "../parser/collect.ts";
import type { Protocol, ToolSpec } from "../types.ts";
import type { DerivedFormat } from "./derive-format.ts";
import type { ProbeCall, TemplateRenderer } from "./probes.ts";
import { templateAssistantOutput } from "./template-output.ts";

/** Tools unlike the probe tools, so that a pass is not the probes read back. */
export const ROUND_TRIP_TOOLS: ToolSpec[] = [
  { name: "get_weather", description: "Weather for a city.", parameters: { type: "object", properties: { city: { type: "string", description: "The city." }, unit: { type: "string", description: "celsius or fahrenheit." } }, required: ["city"] } },
  {
    name: "add_numbers",
    description: "Adds numbers.",
    parameters: {
      type: "object",
      properties: { a: { type: "integer", description: "First." }, b: { type: "number", description: "Second." }, flags: { type: "array", description: "Flags." }, meta: { type: "object", description: "Extra." } },
    },
  },
];

const WEATHER: ProbeCall = { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } };
const ADD: ProbeCall = { name: "add_numbers", arguments: { a: 2, b: 3.5, flags: [true, false], meta: { x: null } } };
export const ROUND_TRIP_REPLY = "Let me check.";

/** The turn shapes read back: one call, and two calls unless the format holds one call per turn. */
export function roundTripShapes(format: Pick<DerivedFormat, "oneCallPerTurn"> | undefined): ProbeCall[][] {
  return format?.oneCallPerTurn ? [[WEATHER]] : [[WEATHER], [WEATHER, ADD]];
}

/**
 * What a model trained on the template writes for the turn `content` + `calls` with the round-trip
 * tools: the template's own text, without a stop token that ends generation (Llama's
 * `<|eom_id|>`, the derived format's section close when the section has no opener). Throws when
 * the template does not render the turn.
 */
export function modelOutputForTurn(render: TemplateRenderer, format: Pick<DerivedFormat, "sectionOpen" | "sectionClose"> | undefined, content: string, calls: ProbeCall[]): string {
  const tools = ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t }));
  const output = templateAssistantOutput(render, content, calls, tools);
  if (format && format.sectionOpen === "" && format.sectionClose !== "" && output.trimEnd().endsWith(format.sectionClose)) return output.trimEnd().slice(0, output.trimEnd().length - format.sectionClose.length);
  return output;
}

export interface RoundTripCase {
  calls: ProbeCall[];
  /** The template's own text for the turn. */
  output: string;
  /** What differs, or undefined when everything came back. */
  failure?: string;
}

/** Chunks of 1, 2, 3, 4, 1, 2, … characters: every marker is split somewhere. */
export function chunksOf1To4(text: string): string[] {
  const chunks: string[] = [];
  for (let i = 0, size = 1; i < text.length; i += size, size = (size % 4) + 1) chunks.push(text.slice(i, i + size));
  return chunks;
}

function describeResult(result: ReturnType<typeof parseAll>): string {
  return JSON.stringify({ text: result.text, calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments })), errors: result.errors.map((e) => e.message) });
}

/** Reads the template's own turns back with `protocol`; one case per turn shape (one call; two calls where the template writes two). */
export function roundTrip(render: TemplateRenderer, format: DerivedFormat, protocol: Protocol): RoundTripCase[] {
  return roundTripShapes(format).map((calls) => {
    let output: string;
    try {
      output = modelOutputForTurn(render, format, ROUND_TRIP_REPLY, calls);
    } catch (error) {
      return { calls, output: "", failure: `the template would not render the turn: ${error instanceof Error ? error.message : String(error)}` };
    }
    const expectedText = output.includes(ROUND_TRIP_REPLY) ? ROUND_TRIP_REPLY : "";
    const expected = JSON.stringify(calls.map((c) => ({ name: c.name, arguments: c.arguments })));
    for (const [how, chunks] of [
      ["whole", [output]],
      ["in chunks of 1–4 characters", chunksOf1To4(output)],
    ] as const) {
      const result = parseAll(protocol, ROUND_TRIP_TOOLS, chunks);
      const got = JSON.stringify(result.calls.map((c) => ({ name: c.name, arguments: c.arguments })));
      if (got !== expected || result.text.trim() !== expectedText || result.errors.length > 0)
        return { calls, output, failure: `read ${how}: ${describeResult(result)}` };
    }
    return { calls, output };
  });
}
