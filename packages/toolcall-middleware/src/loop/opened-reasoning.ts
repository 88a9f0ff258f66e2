// A reply that starts inside a reasoning block: where a template's generation prompt opens the
// block itself (Qwen3.5 with thinking on ends the prompt with "<think>\n"), the model's output has
// no opening tag and its first words are reasoning. The protocol's parser is given the opening tag
// first and every offset it reports is moved back by the tag's length, so spans stay offsets into
// the output as the model wrote it. The protocols' parsers are unchanged.
import type { ParseEvent, Protocol, StreamParser, ToolSpec } from "../types.ts";

/**
 * Whether this protocol's parser reads `tag` as the opening of a reasoning block: given the tag
 * and a word, it reports the word as reasoning and nothing else (a protocol with other reasoning
 * tags would read the tag as text).
 */
function opensReasoning(protocol: Protocol, tools: ToolSpec[], tag: string): boolean {
  const probe = protocol.createParser(tools);
  const events = [...probe.push(tag), ...probe.push("x"), ...probe.end()];
  return events.length > 0 && events.every((event) => event.type === "reasoning");
}

const shifted = (event: ParseEvent, by: number): ParseEvent => ({ ...event, span: { start: event.span.start - by, end: event.span.end - by } });

/**
 * The protocol's parser for an output that starts inside a reasoning block opened by `tag`, where
 * the protocol reads that tag; else its plain parser (the output's reasoning is then read as the
 * protocol reads it).
 */
export function parserStartedInReasoning(protocol: Protocol, tools: ToolSpec[], tag: string): StreamParser {
  const parser = protocol.createParser(tools);
  if (!opensReasoning(protocol, tools, tag)) return parser;
  // The tag is consumed by the reasoning stage: it is in no event and no span.
  const before = parser.push(tag);
  return {
    push: (chunk) => [...before.splice(0), ...parser.push(chunk)].map((event) => shifted(event, tag.length)),
    end: () => [...before.splice(0), ...parser.end()].map((event) => shifted(event, tag.length)),
  };
}
