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

export function constrainStep(toolChoice: ToolChoiceSetting, protocol: Protocol, tools: ToolSpec[], engine: Engine): ConstrainedStep {
  const unconstrained = (unsupported: string): ConstrainedStep => ({ constraint: { toolChoice, unsupported } });
  if (engine.constrains?.supported !== true) {
    return unconstrained(engine.constrains?.reason ?? `the engine "${engine.name}" cannot constrain its output`);
  }
  if (!protocol.structuralTag) return unconstrained(`the ${protocol.name} protocol has no structural tag`);
  if (tools.length === 0) return unconstrained("no tools are offered");
  if (typeof toolChoice === "object" && !tools.some((tool) => tool.name === toolChoice.name)) {
    return unconstrained(`the chosen tool "${toolChoice.name}" is not offered in this conversation`);
  }
  const structuralTag = toolChoice === "none" ? noCalls(protocol.structuralTag(tools, "auto")) : protocol.structuralTag(tools, toolChoice);
  return { constraint: { toolChoice, structuralTag }, structuralTag };
}

/** A content no text matches: a call, once opened, could never be written, so none is opened. */
const NOTHING: StructuralTagFormat = { type: "regex", pattern: "[^\\s\\S]" };

/** The protocol's own tag with every call's content made impossible: its triggers cannot be written. */
function noCalls(tag: StructuralTag): StructuralTag {
  const format = tag.format;
  if (format.type !== "triggered_tags") return tag;
  return { ...tag, format: { ...format, tags: format.tags.map((item) => ({ ...item, content: NOTHING })), at_least_one: false } };
}
