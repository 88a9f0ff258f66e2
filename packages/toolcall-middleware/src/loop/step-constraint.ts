// "Constrain tool calls": the structural tag a step sends so that the engine's grammar (XGrammar)
// lets the model write text freely but any call only as a call to an offered tool with valid
// arguments, in the protocol's own format. Recorded in the step's start with the tool choice; a
// step that cannot be constrained (the engine or the protocol cannot) records why.
import type { Engine, Protocol, StepConstraint, StructuralTag, StructuralTagFormat, ToolChoiceSetting, ToolSpec } from "../types.ts";

export interface ConstrainedStep {
  constraint: StepConstraint;
  /** What to send, absent when the step runs unconstrained. */
  structuralTag?: StructuralTag;
}

export function constrainStep(toolChoice: ToolChoiceSetting, protocol: Protocol, tools: ToolSpec[], engine: Engine, asChat = true): ConstrainedStep {
  if (engine.constrains?.supported !== true) {
    return { constraint: { toolChoice, unsupported: engine.constrains?.reason ?? `the engine "${engine.name}" cannot constrain its output` } };
  }
  // WebLLM constrains on its chat path only (its raw completion path takes no grammar); llama.cpp's engines take the grammar with a raw prompt.
  if (!asChat && engine.constrains.needsChatTurns) return { constraint: { toolChoice, unsupported: "the template cannot give this prompt as chat turns, which a constrained generation needs" } };
  const tag = structuralTagFor(toolChoice, protocol, tools);
  return "unsupported" in tag ? { constraint: { toolChoice, unsupported: tag.unsupported } } : { constraint: { toolChoice, structuralTag: tag.structuralTag }, structuralTag: tag.structuralTag };
}

/** The protocol's structural tag for these tools and this choice, or why there is none. */
export function structuralTagFor(toolChoice: ToolChoiceSetting, protocol: Protocol, tools: ToolSpec[]): { structuralTag: StructuralTag } | { unsupported: string } {
  if (!protocol.structuralTag) return { unsupported: `the ${protocol.name} protocol has no structural tag` };
  if (tools.length === 0) return { unsupported: "no tools are offered" };
  if (typeof toolChoice === "object" && !tools.some((tool) => tool.name === toolChoice.name)) {
    return { unsupported: `the chosen tool "${toolChoice.name}" is not offered in this conversation` };
  }
  return { structuralTag: toolChoice === "none" ? noCalls(protocol.structuralTag(tools, "auto")) : protocol.structuralTag(tools, toolChoice) };
}

/** A content no text matches: a call, once opened, could never be written, so none is opened. */
const NOTHING: StructuralTagFormat = { type: "regex", pattern: "[^\\s\\S]" };

/** The protocol's own tag with every call's content made impossible: its triggers cannot be written. */
function noCalls(tag: StructuralTag): StructuralTag {
  const format = tag.format;
  if (format.type !== "triggered_tags") return tag;
  return { ...tag, format: { ...format, tags: format.tags.map((item) => ({ ...item, content: NOTHING })), at_least_one: false } };
}
