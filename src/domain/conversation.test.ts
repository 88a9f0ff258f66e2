import { describe, expect, it } from "vitest";
import { createConversation, defaultSettings, readSettings, upgradeSettings, type ConversationSettings } from "./conversation.ts";
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

describe("readSettings", () => {
  it("keeps every usable field and resets each unusable one to its default, naming it", () => {
    const { settings, problems } = readSettings({
      maxSteps: "abc",
      toolTimeoutMs: 30_000,
      temperature: 0.2,
      maxTokens: 512,
      systemPrompt: 5,
      disabledTools: {},
      research: { systemPrompt: "Be thorough.", fallbackFormat: "poem", timeoutMs: 60_000 },
    });
    expect(settings).toEqual({
      ...defaultSettings,
      toolTimeoutMs: 30_000,
      temperature: 0.2,
      maxTokens: 512,
      research: { ...defaultSettings.research, systemPrompt: "Be thorough.", timeoutMs: 60_000 },
    });
    expect(problems.map((p) => p.field)).toEqual(["maxSteps", "systemPrompt", "disabledTools", "research.fallbackFormat"]);
    expect(problems[0]!.message).toContain('"abc"');
    expect(problems[0]!.message).toContain("using 8");
  });

  it("holds numbers to the ranges the Settings panel allows", () => {
    const { settings, problems } = readSettings({ maxSteps: 121, temperature: -1, maxTokens: 1.5, toolTimeoutMs: Infinity, research: { timeoutMs: NaN } });
    expect(settings.maxSteps).toBe(defaultSettings.maxSteps);
    expect(settings.temperature).toBe(defaultSettings.temperature);
    expect(settings.maxTokens).toBe(defaultSettings.maxTokens);
    expect(settings.toolTimeoutMs).toBe(defaultSettings.toolTimeoutMs);
    expect(settings.research.timeoutMs).toBe(defaultSettings.research.timeoutMs);
    expect(problems.map((p) => p.field)).toEqual(["maxSteps", "toolTimeoutMs", "temperature", "maxTokens", "research.timeoutMs"]);
  });

  it("keeps a max calls per step from 1 to 256 (default 16), a whole number", () => {
    expect(defaultSettings.maxCallsPerStep).toBe(16);
    expect(readSettings({ maxCallsPerStep: 40 }).settings.maxCallsPerStep).toBe(40);
    for (const bad of [0, 257, 2.5, "16"]) {
      const { settings, problems } = readSettings({ maxCallsPerStep: bad });
      expect(settings.maxCallsPerStep).toBe(16);
      expect(problems.map((p) => p.field)).toEqual(["maxCallsPerStep"]);
    }
  });

  it("takes defaults quietly for missing fields, and loudly for settings that are not an object", () => {
    expect(readSettings({ maxSteps: 3 })).toEqual({ settings: { ...defaultSettings, maxSteps: 3 }, problems: [] });
    expect(readSettings(undefined)).toEqual({ settings: defaultSettings, problems: [] });
    expect(readSettings("fast").problems).toEqual([{ field: "settings", message: expect.stringContaining('"fast" is not a settings object') }]);
    expect(readSettings({ research: [1] }).problems.map((p) => p.field)).toEqual(["research"]);
  });

  it("returns a copy that shares nothing with the input or the defaults", () => {
    const input = { disabledTools: ["calculator"] };
    const { settings } = readSettings(input);
    settings.disabledTools.push("notes");
    settings.research.systemPrompt = "changed";
    expect(input.disabledTools).toEqual(["calculator"]);
    expect(defaultSettings.research.systemPrompt).not.toBe("changed");
  });
});
