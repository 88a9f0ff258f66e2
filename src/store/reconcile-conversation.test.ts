import { describe, expect, it } from "vitest";
import { createConversation, metaOf } from "../domain/conversation.ts";
import { reconcileConversation } from "./reconcile-conversation.ts";
import { toolCallRun } from "./test-events.ts";

describe("reconciling two tabs' versions of a conversation", () => {
  const base = { ...createConversation(100), events: toolCallRun("a1", [{ role: "user", content: "A1" }]) };
  const a2 = toolCallRun("a2", [{ role: "user", content: "A2" }]);
  const b2 = toolCallRun("b2", [{ role: "user", content: "B2" }]);

  it("keeps every event: the stored log, then what this tab added on top of what it had seen", () => {
    const stored = { ...base, events: [...base.events, ...a2], updatedAt: 300 };
    const ours = { ...base, events: [...base.events, ...b2], updatedAt: 200 };
    const result = reconcileConversation(ours, { eventCount: base.events.length, meta: metaOf(base) }, stored);
    expect(result.conversation.events).toEqual([...base.events, ...a2, ...b2]);
    expect(result).toMatchObject({ fromElsewhere: a2.length, fromHere: b2.length });
    expect(result.conversation.updatedAt).toBe(300);
  });

  it("takes each title or setting from the side that changed it", () => {
    const stored = { ...base, title: "Renamed elsewhere", settings: { ...base.settings, temperature: 0.1 } };
    const ours = { ...base, settings: { ...base.settings, maxSteps: 3 } };
    const result = reconcileConversation(ours, { eventCount: base.events.length, meta: metaOf(base) }, stored);
    expect(result.conversation.title).toBe("Renamed elsewhere");
    expect(result.conversation.settings).toEqual({ ...base.settings, temperature: 0.1, maxSteps: 3 });
    expect(result).toMatchObject({ fromElsewhere: 0, fromHere: 0 });
  });

  it("takes what is stored when this tab never saw the conversation", () => {
    const stored = { ...base, title: "Stored" };
    const ours = { ...base, title: "Ours", events: [] };
    const result = reconcileConversation(ours, { eventCount: 0, meta: null }, stored);
    expect(result.conversation.title).toBe("Stored");
    expect(result.conversation.events).toEqual(base.events);
  });
});
