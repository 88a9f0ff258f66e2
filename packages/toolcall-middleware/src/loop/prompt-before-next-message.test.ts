import { describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "../families/registry.ts";
import { getProtocol } from "../protocols/registry.ts";
import type { ChatMessage, ToolSpec } from "../types.ts";
import { promptBeforeNextMessage, renderPrompt } from "./render-conversation.ts";

const calculator: ToolSpec = { name: "calculator", description: "Evaluates arithmetic.", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } };

describe("the text every next prompt starts with (what a prompt cache can hold before the message is written)", () => {
  for (const [familyId, protocolName] of [["smollm2", "hermes"], ["gemma3", "xml"], ["smollm2", "pythonic"]] as const) {
    it(`is where the prompts of any two next messages part, for ${familyId} in ${protocolName}`, () => {
      const template = familyChatTemplate(familyById(familyId)!);
      const protocol = getProtocol(protocolName)!;
      const history: ChatMessage[] = [
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi! How can I help?" },
      ];
      for (const messages of [[], history]) {
        const prefix = promptBeforeNextMessage({ tools: [calculator], protocol, messages, template });
        for (const next of ["What is 17 * 23?", "Name three colours.", "A"]) {
          const prompt = renderPrompt({ tools: [calculator], protocol, messages: [...messages, { role: "user", content: next }], template }).prompt;
          expect(prompt.startsWith(prefix)).toBe(true);
          expect(prompt.slice(prefix.length).startsWith(next[0]!)).toBe(true);
        }
        // The tool section is part of it.
        expect(prefix).toContain("calculator");
        if (messages.length > 0) expect(prefix).toContain("Hi! How can I help?");
      }
    });
  }
});
