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
const REPLY = "Let me check.";

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
  const tools = ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t }));
  const shapes = format.oneCallPerTurn ? [[WEATHER]] : [[WEATHER], [WEATHER, ADD]];
  return shapes.map((calls) => {
    let output: string;
    try {
      output = templateAssistantOutput(render, REPLY, calls, tools);
    } catch (error) {
      return { calls, output: "", failure: `the template would not render the turn: ${error instanceof Error ? error.message : String(error)}` };
    }
    // A turn with calls may end with its own stop token (Llama's <|eom_id|>), where generation stops.
    if (format.sectionOpen === "" && format.sectionClose !== "" && output.trimEnd().endsWith(format.sectionClose)) output = output.trimEnd().slice(0, output.trimEnd().length - format.sectionClose.length);
    const expectedText = output.includes(REPLY) ? REPLY : "";
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
