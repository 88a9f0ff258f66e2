import { describe, expect, it } from "vitest";
import { offersOnlySmallModelTools, startWithFewTools } from "./small-model-tools.ts";
import { createConversations } from "./conversation-store.ts";
import { createTabStatusStore } from "./tab-status.ts";
import { createToolCatalog } from "./tool-catalog.ts";
import { createMcpServers } from "../mcp/mcp-servers.ts";
import { IDBFactory } from "fake-indexeddb";
import { createIndexedDbRepository } from "../persistence/conversation-db.ts";

describe("the tools the one-click CPU model starts with", () => {
  it("offers only the calculator in a conversation nothing was said in, and every tool stays listed", async () => {
    const conversations = createConversations({ tabStatus: createTabStatusStore() });
    await conversations.conversationActions.init(createIndexedDbRepository(new IDBFactory()));
    const tools = createToolCatalog({ mcp: createMcpServers() });
    startWithFewTools({ conversations, tools });
    const settings = conversations.store.getState().active!.settings;
    const all = tools.allTools(settings).map((t) => t.name);
    expect(tools.enabledTools(settings).map((t) => t.name)).toEqual(["calculator"]);
    expect(all.length).toBeGreaterThan(1);
    expect(offersOnlySmallModelTools(settings.disabledTools, all)).toBe(true);
    expect(offersOnlySmallModelTools([], all)).toBe(false);
  });
});
