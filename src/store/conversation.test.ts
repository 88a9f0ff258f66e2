import { describe, expect, it } from "vitest";
import { createConversation, defaultSettings, upgradeSettings, type ConversationSettings } from "./conversation.ts";

describe("conversation settings", () => {
  it("leave sampling to the model family by default", () => {
    const { settings } = createConversation();
    expect(settings).toMatchObject({ maxTokens: null, temperature: null, topP: null, repetitionPenalty: null, seed: null });
  });

  it("let a conversation saved with the old fixed values follow the model, but keep values a person chose", () => {
    const { topP: _t, repetitionPenalty: _r, presencePenalty: _p, frequencyPenalty: _f, seed: _s, ...old } = defaultSettings;
    const legacy = { ...old, maxTokens: 1024, temperature: 0.6 } as ConversationSettings;
    expect(upgradeSettings(legacy)).toMatchObject({ maxTokens: null, temperature: null });
    const chosen = { ...old, maxTokens: 512, temperature: 0.6 } as ConversationSettings;
    expect(upgradeSettings(chosen)).toMatchObject({ maxTokens: 512, temperature: 0.6 });
    expect(upgradeSettings({ ...defaultSettings, maxTokens: 1024, temperature: 0.6 })).toMatchObject({ maxTokens: 1024 });
  });
});
