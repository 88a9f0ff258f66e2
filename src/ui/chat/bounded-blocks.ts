// How much of one assistant turn the chat draws. A reply can hold tens of thousands of parse
// errors or calls (1 MB of `<tool_call>{` is ~80,000 unfinished calls); drawing an element for
// each kept the page from answering for minutes. The chat draws the first few of each kind and
// counts the rest; the event log and the debugger keep every one.
import type { AssistantBlock } from "../../store/derive-chat.ts";

export interface BlockLimits {
  parseErrors: number;
  calls: number;
  /** Text and reasoning passages. */
  texts: number;
}

export const CHAT_BLOCK_LIMITS: BlockLimits = { parseErrors: 20, calls: 50, texts: 200 };

export interface HiddenBlocks {
  parseErrors: number;
  calls: number;
  texts: number;
  /** The step of the first block not drawn, for showing it in the debugger. */
  firstStepId?: string;
}

export interface BoundedBlocks {
  shown: AssistantBlock[];
  hidden: HiddenBlocks | null;
  /** Where in `shown` the first block left out was: the note of what is hidden goes there. */
  noteAt: number;
}

type Bounded = keyof BlockLimits;

function boundedKindOf(block: AssistantBlock): Bounded | null {
  if (block.kind === "notice") return block.parseError ? "parseErrors" : null;
  if (block.kind === "tool-call") return "calls";
  return "texts";
}

function stepIdOf(block: AssistantBlock): string | undefined {
  return block.kind === "tool-call" ? block.card.stepId : block.stepId;
}

/**
 * The blocks drawn, in order: the first `limits[kind]` of each bounded kind, every other notice
 * (a step's engine error), and how many of each kind are left out. One pass, no elements made.
 */
export function boundBlocks(blocks: readonly AssistantBlock[], limits: BlockLimits = CHAT_BLOCK_LIMITS): BoundedBlocks {
  const drawn: Record<Bounded, number> = { parseErrors: 0, calls: 0, texts: 0 };
  const hidden: HiddenBlocks = { parseErrors: 0, calls: 0, texts: 0 };
  const shown: AssistantBlock[] = [];
  let anyHidden = false;
  let noteAt = 0;
  for (const block of blocks) {
    const kind = boundedKindOf(block);
    if (kind === null || drawn[kind] < limits[kind]) {
      if (kind !== null) drawn[kind] += 1;
      shown.push(block);
      continue;
    }
    hidden[kind] += 1;
    if (!anyHidden) {
      anyHidden = true;
      noteAt = shown.length;
      const stepId = stepIdOf(block);
      if (stepId !== undefined) hidden.firstStepId = stepId;
    }
  }
  return { shown, hidden: anyHidden ? hidden : null, noteAt: anyHidden ? noteAt : shown.length };
}

function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} more ${n === 1 ? one : many}`;
}

/** "and 76,980 more parse errors, 3 more tool calls — …": what the chat left out, by kind. */
export function hiddenBlocksNote(hidden: HiddenBlocks): string {
  const parts = [
    hidden.parseErrors > 0 ? counted(hidden.parseErrors, "parse error", "parse errors") : "",
    hidden.calls > 0 ? counted(hidden.calls, "tool call", "tool calls") : "",
    hidden.texts > 0 ? counted(hidden.texts, "passage of text", "passages of text") : "",
  ].filter((part) => part !== "");
  return `and ${parts.join(", ")} not drawn here — the debugger's parse steps list every one`;
}
