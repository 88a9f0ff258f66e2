import { describe, expect, it } from "vitest";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createChatDeriver, deriveChat, type AssistantTurn } from "./derive-chat.ts";
import { deriveHistory } from "./derive-history.ts";
import { toolCallRun } from "./test-events.ts";

const userA = { role: "user", content: "what is 2+2?" } as const;

describe("deriveChat", () => {
  it("turns a run into the user's message and one assistant turn of text, a card and the answer", () => {
    const items = deriveChat(toolCallRun("r1", [userA]));
    expect(items.map((i) => i.kind)).toEqual(["user", "assistant"]);
    expect(items[0]).toMatchObject({ content: "what is 2+2?" });
    const turn = items[1] as AssistantTurn;
    expect(turn.status).toBe("final");
    expect(turn.protocols).toEqual(["hermes", "xml"]);
    expect(turn.blocks.map((b) => b.kind)).toEqual(["text", "tool-call", "text"]);
    expect(turn.blocks[0]).toMatchObject({ text: "Let me compute." });
    const card = turn.blocks[1]!;
    expect(card.kind === "tool-call" && card.card).toMatchObject({
      name: "calculator",
      arguments: { expression: "2+2" },
      status: "ok",
      content: "4",
      durationMs: 3,
      stepId: "r1-s1",
      protocol: "hermes",
    });
  });

  it("shows a card as being written while its arguments stream", () => {
    const events = toolCallRun("r1", [userA]).slice(0, 7);
    const turn = deriveChat(events, "r1")[1] as AssistantTurn;
    expect(turn.status).toBe("running");
    const card = turn.blocks[1]!;
    expect(card.kind === "tool-call" && card.card).toMatchObject({ status: "writing", argumentsText: '{"expression":' });
  });

  it("marks a run without run-end as interrupted unless it is live, and its running call as stopped", () => {
    const events = toolCallRun("r1", [userA]).slice(0, 11);
    const interrupted = deriveChat(events, null)[1] as AssistantTurn;
    expect(interrupted.status).toBe("interrupted");
    const card = interrupted.blocks[1]!;
    expect(card.kind === "tool-call" && card.card.status).toBe("aborted");
    expect((deriveChat(events, "r1")[1] as AssistantTurn).status).toBe("running");
  });

  it("reports a failed run's error and keeps its text", () => {
    const events: LoopEvent[] = [
      ...toolCallRun("r1", [userA]).slice(0, 5),
      { type: "step-end", runId: "r1", at: 5000, stepId: "r1-s1", status: "engine-error", durationMs: 1, error: "Replay transcript exhausted" },
      { type: "run-end", runId: "r1", at: 5001, status: "engine-error", error: "Replay transcript exhausted", messages: [userA] },
    ];
    const turn = deriveChat(events)[1] as AssistantTurn;
    expect(turn.status).toBe("engine-error");
    expect(turn.error).toBe("Replay transcript exhausted");
    expect(turn.blocks[0]).toMatchObject({ kind: "text", text: "Let me compute." });
    expect(turn.blocks.some((b) => b.kind === "notice" && b.text.includes("exhausted"))).toBe(true);
  });

  it("drops the card of a call the parser took back (not-a-call) and keeps its text in the text before it", () => {
    const events = toolCallRun("r1", [userA]).slice(0, 7);
    const taken: LoopEvent[] = [
      { type: "parse", runId: "r1", at: 1, stepId: "r1-s1", event: { type: "repair", id: "r1-call", kind: "not-a-call", message: "m", before: "", after: "", span: { start: 16, end: 44 } } },
      { type: "parse", runId: "r1", at: 2, stepId: "r1-s1", event: { type: "text", text: ' {"expression":', span: { start: 15, end: 30 } } },
    ];
    const turn = deriveChat([...events, ...taken], "r1")[1] as AssistantTurn;
    expect(turn.blocks.map((b) => b.kind)).toEqual(["text"]);
    expect(turn.blocks[0]).toMatchObject({ text: 'Let me compute. {"expression":' });
  });

  it("counts the parser's repairs on the card of the call they fixed, even when reported before it started", () => {
    const events = toolCallRun("r1", [userA]);
    const repair: LoopEvent = {
      type: "parse", runId: "r1", at: 1, stepId: "r1-s1",
      event: { type: "repair", id: "r1-call", kind: "single-quotes", message: "m", before: "'a'", after: '"a"', span: { start: 20, end: 23 } },
    };
    const withRepairs = [...events.slice(0, 5), repair, ...events.slice(5, 7), repair, ...events.slice(7)];
    const card = (deriveChat(withRepairs)[1] as AssistantTurn).blocks.find((b) => b.kind === "tool-call");
    expect(card?.kind === "tool-call" && card.card.repairs).toBe(2);
  });

  it("counts a sub-agent's steps on the card of the call that started it", () => {
    const base = toolCallRun("r1", [userA]);
    const nested: LoopEvent = {
      type: "step-start", runId: "sub", at: 1, stepId: "sub-s1", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "", template: "chatml", settings: {},
      parent: { runId: "r1", stepId: "r1-s1", callId: "r1-call" },
    };
    const events = [...base.slice(0, 11), nested, { ...nested, stepId: "sub-s2" }, ...base.slice(11)];
    const turn = deriveChat(events)[1] as AssistantTurn;
    const card = turn.blocks.find((b) => b.kind === "tool-call");
    expect(card?.kind === "tool-call" && card.card.nestedSteps).toBe(2);
    expect(turn.steps).toBe(2);
  });
});

describe("createChatDeriver", () => {
  it("gives the same result as deriving from scratch, event by event, and reuses finished runs", () => {
    const events = [...toolCallRun("r1", [userA]), ...toolCallRun("r2", [userA, { role: "user", content: "again" }], { end: false })];
    const derive = createChatDeriver();
    let firstTurn: unknown;
    for (let n = 1; n <= events.length; n += 1) {
      const prefix = events.slice(0, n);
      const items = derive(prefix, "r2");
      expect(items).toEqual(deriveChat(prefix, "r2"));
      if (n > 18) {
        firstTurn ??= items[1];
        expect(items[1]).toBe(firstTurn);
      }
    }
  });

  it("folds a live run's new events into its turn: the turn equals one derived from scratch, and blocks already made are kept, not made again", () => {
    // A reply of unfinished calls: each a parse error, 2,000 of them, arriving in batches.
    const started = toolCallRun("r1", [userA], { end: false }).slice(0, 2);
    const errors: LoopEvent[] = Array.from({ length: 2_000 }, (_, i): LoopEvent => ({
      type: "parse",
      runId: "r1",
      at: 2_000 + i,
      stepId: "r1-s1",
      event: { type: "parse-error", kind: "invalid-json", message: "cut off", raw: "<tool_call>{", span: { start: i * 12, end: i * 12 + 12 } },
    }));
    const derive = createChatDeriver();
    let before: AssistantTurn | undefined;
    for (let n = 0; n <= errors.length; n += 250) {
      const log = [...started, ...errors.slice(0, n)];
      const items = derive(log, "r1");
      expect(items).toEqual(deriveChat(log, "r1"));
      const turn = items[1] as AssistantTurn;
      if (before && before.blocks.length > 0) {
        expect(turn).not.toBe(before);
        expect(turn.blocks.length).toBe(before.blocks.length + 250);
        // What the previous update made is the same objects now (before: every block made again).
        expect(turn.blocks[0]).toBe(before.blocks[0]);
        expect(turn.blocks[before.blocks.length - 1]).toBe(before.blocks.at(-1));
      }
      before = turn;
    }
    // The run ends: its turn is derived once more, finished, as from scratch.
    const ended = [...started, ...errors, { type: "run-end", runId: "r1", at: 9_999, status: "final", messages: [] } as LoopEvent];
    expect(derive(ended, null)).toEqual(deriveChat(ended, null));
  });

  it("starts over when given another conversation's log", () => {
    const derive = createChatDeriver();
    derive(toolCallRun("r1", [userA]), null);
    const other = toolCallRun("x", [{ role: "user", content: "other" }]);
    expect(derive(other, null)).toEqual(deriveChat(other));
  });
});

describe("deriveHistory", () => {
  it("takes the last run's final messages", () => {
    const history = deriveHistory(toolCallRun("r1", [userA]));
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("rebuilds a run cut off without run-end from its input and messages, without duplicates", () => {
    const events = toolCallRun("r1", [userA], { end: false });
    const history = deriveHistory(events);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("leaves system messages out", () => {
    const events = toolCallRun("r1", [{ role: "system", content: "sys" }, userA]);
    expect(deriveHistory(events).some((m) => m.role === "system")).toBe(false);
  });
});
