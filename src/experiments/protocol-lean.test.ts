import { describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { TextProbe } from "toolcall-middleware/types.ts";
import { LEAN_PROTOCOLS, protocolLean } from "./protocol-lean.ts";

const calculator = { name: "calculator", description: "Evaluate an arithmetic expression", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } };

describe("the protocol table's rows", () => {
  it("each row sums its probes' prompt tokens as the engine reported them (read now, reused from its cache)", async () => {
    const probes: Array<{ prompt: string; text: string }> = [];
    const engine = {
      name: "scripted",
      probeText: async (prompt: string, text: string): Promise<TextProbe> => {
        probes.push({ prompt, text });
        return { text, p: 0.5, tokens: [{ text, p: 0.5, id: 1 }], read: { prefilledTokens: 3, reusedTokens: 100 } };
      },
    };
    const protocols = LEAN_PROTOCOLS.map((name) => getProtocol(name)!);
    const rows = await protocolLean({ engine, template: familyChatTemplate(familyById("smollm2")!), messages: [{ role: "user", content: "What is 6 times 7?" }], tools: [calculator], protocols }, new AbortController().signal);
    expect(rows.map((r) => r.protocol)).toEqual(LEAN_PROTOCOLS);
    for (const [i, row] of rows.entries()) {
      const markers = openingMarkers(protocols[i]!, [calculator]).length;
      expect(row).toMatchObject({ read: { prefilledTokens: 3 * markers, reusedTokens: 100 * markers } });
    }
    expect(probes.length).toBe(protocols.reduce((n, p) => n + openingMarkers(p, [calculator]).length, 0));
  });

  it("a row has no read where the engine reports none", async () => {
    const engine = { name: "scripted", probeText: async (_prompt: string, text: string): Promise<TextProbe> => ({ text, p: 0.1, tokens: [{ text, p: 0.1 }] }) };
    const rows = await protocolLean({ engine, template: familyChatTemplate(familyById("smollm2")!), messages: [{ role: "user", content: "Hi" }], tools: [calculator], protocols: [getProtocol("hermes")!] }, new AbortController().signal);
    expect(rows[0]).not.toHaveProperty("read");
    expect(rows[0]).toHaveProperty("p", 0.1);
  });
});
