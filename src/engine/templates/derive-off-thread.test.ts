import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { deriveFormatOffThread, protocolOfDerivedFormat } from "./derive-off-thread.ts";
import { templateAssistantOutput } from "toolcall-middleware/derive/template-output.ts";
import { boundedTemplateRenderer, deriveFromTemplate } from "./derived-from-template.ts";

const qwen = readFileSync(join(import.meta.dirname, "llama-cpp-templates", "Qwen-Qwen2.5-7B-Instruct.jinja"), "utf8");

describe("deriveFormatOffThread (here without workers: the same derivation on this thread)", () => {
  it("gives the format deriveFromTemplate derives, as plain data a worker can send", async () => {
    const derived = await deriveFormatOffThread(qwen, "qwen");
    const direct = deriveFromTemplate(qwen, "qwen");
    expect(derived.ok && direct.ok).toBe(true);
    if (!derived.ok || !direct.ok) return;
    expect(derived.format).toEqual(direct.format);
    expect(structuredClone(derived.format)).toEqual(derived.format);
  });

  it("says why for a template it cannot derive from", async () => {
    expect(await deriveFormatOffThread("{{ messages[0].content }}", "plain")).toEqual({ ok: false, reason: expect.stringMatching(/^cannot derive: /) });
    expect(await deriveFormatOffThread("{% for %}", "broken")).toEqual({ ok: false, reason: expect.stringMatching(/^cannot derive: the template is not valid Jinja/) });
  });

  it("builds, from the format alone, a protocol that reads the template's calls and writes the template's own tool section", async () => {
    const derived = await deriveFormatOffThread(qwen, "qwen");
    if (!derived.ok) throw new Error(derived.reason);
    const render = boundedTemplateRenderer(qwen, "qwen");
    const protocol = protocolOfDerivedFormat(derived.format, { name: "template:qwen", label: "Derived from the template of qwen" }, render);
    expect(protocol.name).toBe("template:qwen");
    expect(protocol.label).toBe("Derived from the template of qwen");
    const tool = ROUND_TRIP_TOOLS[0]!;
    expect(protocol.systemPrompt(ROUND_TRIP_TOOLS)).toContain(tool.name);
    const call = { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } };
    const output = templateAssistantOutput(render, "", [call], ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t })));
    expect(parseAll(protocol, ROUND_TRIP_TOOLS, [output]).calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([call]);
  });
});
