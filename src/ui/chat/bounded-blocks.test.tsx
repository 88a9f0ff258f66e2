// A reply of ~80,000 unfinished calls must not become ~80,000 elements in the chat: the first few
// of each kind are drawn and the rest counted, while the turn (a view of the log) keeps them all.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { LoopEvent, ToolSpec } from "toolcall-middleware/types.ts";
import { createLabStores } from "../../app/lab-stores.ts";
import { LabStoresProvider } from "../../app/lab-stores-context.tsx";
import { deriveAssistantTurn, type AssistantBlock } from "../../store/derive-chat.ts";
import { AssistantMessage } from "./AssistantMessage.tsx";
import { boundBlocks, CHAT_BLOCK_LIMITS, hiddenBlocksNote } from "./bounded-blocks.ts";

const tools: ToolSpec[] = [{ name: "calculator", description: "Evaluates an expression", parameters: { type: "object", properties: { expression: { type: "string" } } } }];

/** A finished run whose one step's output is `output`, parsed by hermes as the loop records it. */
function runOf(output: string): LoopEvent[] {
  const parser = getProtocol("hermes")!.createParser(tools);
  const parsed = [...parser.push(output), ...parser.end()];
  const base = { runId: "r1", at: 1 };
  return [
    { ...base, type: "step-start", stepId: "s1", protocol: "hermes" } as LoopEvent,
    ...parsed.map((event) => ({ ...base, type: "parse", stepId: "s1", event }) as LoopEvent),
    { ...base, type: "run-end", status: "final", messages: [] } as unknown as LoopEvent,
  ];
}

const text = (i: number): AssistantBlock => ({ kind: "text", key: `t${i}`, stepId: "s1", text: `t${i}` });
const parseError = (i: number): AssistantBlock => ({ kind: "notice", key: `e${i}`, stepId: "s2", tone: "warn", text: `e${i}`, parseError: true });

describe("the chat's bound on one turn's blocks", () => {
  it("keeps the first of each kind in order, every other notice, and counts the rest", () => {
    const engineError: AssistantBlock = { kind: "notice", key: "x", stepId: "s3", tone: "error", text: "engine failed" };
    const blocks = [text(0), parseError(0), parseError(1), parseError(2), text(1), text(2), engineError];
    const { shown, hidden } = boundBlocks(blocks, { parseErrors: 2, calls: 1, texts: 2 });
    expect(shown.map((b) => b.key)).toEqual(["t0", "e0", "e1", "t1", "x"]);
    expect(hidden).toEqual({ parseErrors: 1, calls: 0, texts: 1, firstStepId: "s2" });
    // The note stands where the first block left out was (after the second error, before "t1").
    expect(boundBlocks(blocks, { parseErrors: 2, calls: 1, texts: 2 }).noteAt).toBe(3);
    expect(boundBlocks([text(0)])).toEqual({ shown: [text(0)], hidden: null, noteAt: 1 });
  });

  it("says what was left out", () => {
    expect(hiddenBlocksNote({ parseErrors: 76_980, calls: 1, texts: 0 })).toBe(
      "and 76,980 more parse errors, 1 more tool call not drawn here — the debugger's parse steps list every one",
    );
  });

  it("draws 20 of 10,000 parse errors of a reply of `<tool_call>{` and says how many more there are", () => {
    const calls = 10_000;
    const turn = deriveAssistantTurn("r1", runOf("<tool_call>{".repeat(calls)), false);
    // The turn is the log's view and keeps every error.
    expect(turn.blocks.filter((b) => b.kind === "notice" && b.parseError)).toHaveLength(calls);
    const html = renderToStaticMarkup(createElement(LabStoresProvider, { stores: createLabStores() }, createElement(AssistantMessage, { turn })));
    const drawn = html.match(/class="chat-notice notice-warn"/g) ?? [];
    expect(drawn).toHaveLength(CHAT_BLOCK_LIMITS.parseErrors);
    expect(html).toContain(`data-parse-errors="${calls - CHAT_BLOCK_LIMITS.parseErrors}"`);
    expect(html).toContain("and 9,980 more parse errors not drawn here");
    // Drawn after the 20th error box, not after what followed the errors.
    expect(html.lastIndexOf('class="chat-notice notice-warn"')).toBeLessThan(html.indexOf('data-testid="hidden-blocks-note"'));
  });
});
