import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collectParse, parseAll } from "toolcall-middleware/parser/collect.ts";
import { deriveFromTemplate } from "../engine/templates/derived-from-template.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { compareParses, explainReparse, reparse, reparseView } from "./reparse.ts";

const calculator: ToolSpec = { name: "calculator", description: "", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } };
const hermesRaw = 'I will compute.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';

function recorded(raw: string, protocol = "hermes") {
  return parseAll(getProtocol(protocol)!, [calculator], [raw]);
}

describe("reparse", () => {
  it("as xml (lenient) finds the Hermes call; strict xml refuses it and says the body is JSON", () => {
    const original = recorded(hermesRaw);
    const lenient = reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "xml", strict: false });
    expect(lenient.result.calls).toHaveLength(1);
    expect(explainReparse(original, original.events, hermesRaw, lenient)).toBe(
      "as xml: the same calls, errors and text as recorded. Read leniently: the `<tool_call>` body is JSON, which xml reads only as a lenient fallback (it writes `<tool_call>` then tags).",
    );

    const strict = reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "xml", strict: true });
    expect(strict.result.calls).toHaveLength(0);
    const explanation = explainReparse(original, original.events, hermesRaw, strict);
    expect(explanation).toMatch(/^as xml \(strict\): no call; the `<tool_call>` body is JSON, which xml reads only as a lenient fallback/);
  });

  it("strict hermes accepts its own form and refuses a repaired call", () => {
    expect(reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "hermes", strict: true }).result.calls).toHaveLength(1);
    const broken = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1",}}\n</tool_call>';
    const strict = reparse({ rawOutput: broken, tools: [calculator], protocol: "hermes", strict: true });
    expect(strict.result.calls).toHaveLength(0);
    expect(strict.refused[0]?.reason).toMatch(/needed a repair \(removed a trailing comma/);
  });

  it("as a protocol without the marker: no call, and the marker is named", () => {
    const original = recorded(hermesRaw);
    const again = reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "llama3-json", strict: false });
    expect(again.result.calls).toHaveLength(0);
    expect(explainReparse(original, original.events, hermesRaw, again)).toMatch(/^as llama3-json: no call; `<tool_call>` is not a marker of llama3-json, which reads it as text/);
  });

  it("lists added, removed and changed calls", () => {
    const a = { text: "", reasoning: "", calls: [{ id: "1", name: "x", arguments: { a: 1 } }, { id: "2", name: "y", arguments: {} }], errors: [], repairs: [] };
    const b = { ...a, calls: [{ id: "1", name: "x", arguments: { a: 2 } }] };
    expect(compareParses(a, b).map((d) => d.kind)).toEqual(["arguments-changed", "call-removed"]);
    expect(compareParses(b, a).map((d) => d.kind)).toEqual(["arguments-changed", "call-added"]);
  });

  it("reports an unknown protocol", () => {
    expect(reparse({ rawOutput: "x", tools: [], protocol: "nope", strict: false }).error).toMatch(/No protocol/);
  });

  it("bounds what it says about a large pathological output: errors counted by kind, the first few named, events and errors sent to the page capped", () => {
    const raw = '<tool_call>{"name": "calculator", "arguments": {"expression": "1"}}</tool_call>\n' + "<tool_call>{</tool_call>\n".repeat(20_000);
    const original = recorded(hermesRaw);
    const again = reparse({ rawOutput: raw, tools: [calculator], protocol: "hermes", strict: false });
    expect(again.result.errors.length).toBeGreaterThanOrEqual(20_000);
    const explanation = explainReparse(original, original.events, raw, again);
    expect(explanation.length).toBeLessThan(2_000);
    expect(explanation).toMatch(/parse errors: none → 20,000 × /);
    const differences = compareParses(original, again.result);
    expect(differences.reduce((n, d) => n + d.text.length, 0)).toBeLessThan(2_000);

    const view = reparseView({ rawOutput: raw, tools: [calculator], protocol: "hermes", strict: false, recorded: original });
    expect(view.eventCount).toBe(again.events.length);
    expect(view.events).toHaveLength(200);
    expect(view.errorCount).toBe(again.result.errors.length);
    expect(view.errors).toHaveLength(50);
    expect(view.explanation).toBe(explanation);
  });
});

describe("reparse by a format derived from a template", () => {
  const QWEN = readFileSync(new URL("../engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");
  const derivedFormat = () => {
    const derivation = deriveFromTemplate(QWEN, "qwen");
    if (!derivation.ok) throw new Error(derivation.reason);
    return derivation.format;
  };

  it("reads hermes's call by the derived twin (plain data, as the re-read's worker gets it), and says they agree", () => {
    const format = structuredClone(derivedFormat());
    const original = recorded(hermesRaw);
    const view = reparseView({ rawOutput: hermesRaw, tools: [calculator], protocol: "template:the model's own", strict: false, derived: format, recorded: collectParse(original.events) });
    expect(view.protocol).toBe("template:the model's own");
    expect(view.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([{ name: "calculator", arguments: { expression: "1234 * 5678" } }]);
    expect(view.differences).toEqual([]);
    expect(view.explanation).toBe("as template:the model's own: the same calls, errors and text as recorded.");
  });

  it("checks an unread call's opener against the twin's own markers; a name without a format is the registry's", () => {
    const again = reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "template:the model's own", strict: false, derived: derivedFormat() });
    expect(again.reservedMarkers).toContain("<tool_call>");
    // A registered name given with no derived format is still the registry's.
    expect(reparse({ rawOutput: hermesRaw, tools: [calculator], protocol: "template:the model's own", strict: false }).error).toBe('No protocol is registered as "template:the model\'s own".');
  });

  it("lists a call the twin finds and the recorded reading did not", () => {
    const original = recorded(hermesRaw, "llama3-json");
    const view = reparseView({ rawOutput: hermesRaw, tools: [calculator], protocol: "template:the model's own", strict: false, derived: derivedFormat(), recorded: collectParse(original.events) });
    expect(view.calls).toHaveLength(1);
    expect(view.differences.map((d) => d.kind)).toContain("call-added");
    expect(view.explanation).toMatch(/^as template:the model's own: 1 call/);
  });
});
