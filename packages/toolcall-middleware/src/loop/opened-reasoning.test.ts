// A reply that starts inside a think block its prompt opened (Qwen3.5 with thinking on): the
// reasoning is read as reasoning, with spans into the output as written, in any chunking; a
// protocol that does not read the tag keeps its own reading.
import { describe, expect, it } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import type { ParseEvent, StreamParser, ToolSpec } from "../types.ts";
import { parserStartedInReasoning } from "./opened-reasoning.ts";

const tools: ToolSpec[] = [{ name: "calculator", description: "Evaluates an expression.", parameters: { type: "object", properties: { expression: { type: "string" } } } }];
const output = "I should compute it.\n</think>\n\n<tool_call>\n<function=calculator>\n<parameter=expression>\n6 * 7\n</parameter>\n</function>\n</tool_call>";

function run(parser: StreamParser, text: string, chunk: number): ParseEvent[] {
  const events: ParseEvent[] = [];
  for (let i = 0; i < text.length; i += chunk) events.push(...parser.push(text.slice(i, i + chunk)));
  return [...events, ...parser.end()];
}

describe("an output that starts inside an opened think block", () => {
  for (const chunk of [1, 7, output.length]) {
    it(`qwen3-coder: the words before </think> are reasoning, the call is read (chunks of ${chunk})`, () => {
      const events = run(parserStartedInReasoning(getProtocol("qwen3-coder")!, tools, "<think>"), output, chunk);
      const reasoning = events.filter((event) => event.type === "reasoning");
      expect(reasoning.map((event) => event.text).join("")).toBe("I should compute it.\n");
      expect(reasoning[0]!.span.start).toBe(0);
      expect(events.some((event) => event.type === "repair")).toBe(false);
      const end = events.find((event) => event.type === "tool-call-end");
      expect(end?.type === "tool-call-end" && end.call).toMatchObject({ name: "calculator", arguments: { expression: "6 * 7" } });
      // Every span is an offset into the output as the model wrote it.
      for (const event of events) expect(output.slice(event.span.start, event.span.end).length).toBe(event.span.end - event.span.start);
      expect(output.slice(end!.span.start, end!.span.end)).toMatch(/^<tool_call>[\s\S]*<\/tool_call>$/);
    });
  }

  it("without it the same output's reasoning is text and its </think> a stray tag (what the plain parser reads)", () => {
    const events = run(getProtocol("qwen3-coder")!.createParser(tools), output, output.length);
    expect(events[0]).toMatchObject({ type: "text", text: "I should compute it.\n" });
    expect(events.some((event) => event.type === "repair" && event.kind === "stray-close-tag")).toBe(true);
  });

  it("a protocol whose reasoning is not <think> keeps its own reading (harmony)", () => {
    const harmony = getProtocol("harmony")!;
    const text = "Plain words.";
    expect(run(parserStartedInReasoning(harmony, tools, "<think>"), text, 3)).toEqual(run(harmony.createParser(tools), text, 3));
  });
});
