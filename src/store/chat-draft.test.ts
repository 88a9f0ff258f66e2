import { describe, expect, it } from "vitest";
import { draftToRestore } from "./chat-draft.ts";
import { toolCallRun } from "./test-events.ts";

const asked = toolCallRun("r1", [{ role: "user", content: "What is 2 + 2?" }]);

describe("the message box's text after a reload", () => {
  it("comes back when the conversation does not hold it (typed, or sent before its start was stored)", () => {
    expect(draftToRestore({ conversationId: "c1", text: "And 3 + 3?" }, "c1", asked)).toBe("And 3 + 3?");
    expect(draftToRestore({ conversationId: "c1", text: "First message" }, "c1", [])).toBe("First message");
  });

  it("does not come back when it is already the conversation's last message (sent and stored, even mid-reply)", () => {
    expect(draftToRestore({ conversationId: "c1", text: "What is 2 + 2?" }, "c1", asked)).toBeNull();
    expect(draftToRestore({ conversationId: "c1", text: "What is 2 + 2?\n" }, "c1", toolCallRun("r1", [{ role: "user", content: "What is 2 + 2?" }], { end: false }))).toBeNull();
  });

  it("belongs to its own conversation, and an empty one is none", () => {
    expect(draftToRestore({ conversationId: "other", text: "And 3 + 3?" }, "c1", asked)).toBeNull();
    expect(draftToRestore({ conversationId: "c1", text: "   " }, "c1", asked)).toBeNull();
    expect(draftToRestore(null, "c1", asked)).toBeNull();
  });
});
