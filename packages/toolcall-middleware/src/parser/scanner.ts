// A protocol's streaming parser: the reasoning stage (think blocks) in front of the
// format-neutral call scanner. Both take what they know of the format from the protocol's
// CallSyntax: the reasoning tags (default <think></think>, none for null) and the call markers.
import type { ToolSpec } from "../types.ts";
import { CallScanner } from "./call-scanner.ts";
import { THINK_TAGS, type CallSyntax } from "./call-syntax.ts";
import { ReasoningStage } from "./reasoning-stage.ts";

export class ToolCallScanner extends ReasoningStage {
  /** The format it reads (what a pre-scan may check before reading: detect-format.ts). */
  readonly syntax: CallSyntax;

  constructor(syntax: CallSyntax, tools: readonly ToolSpec[]) {
    super(syntax.reasoning === undefined ? THINK_TAGS : syntax.reasoning, new CallScanner(syntax, tools));
    this.syntax = syntax;
  }
}
