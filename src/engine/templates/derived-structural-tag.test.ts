// Constrained decoding for derived formats: over llama.cpp's vendor templates (fixtures:
// llama-cpp-templates/, SOURCES.md), every format with a fixed text opening its calls gets a
// structural tag, whether its arguments are one JSON object or tagged one by one; llama.cpp's
// grammar is written from it; a call as the derived protocol writes it is what that grammar
// allows (checked with the lab's GBNF recognizer), and it is read back, whole and in
// 1-4-character chunks, as that call (the grammar, the writer and the reader agree).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { derivedStructuralTag, writeDerivedCalls } from "toolcall-middleware/derive/derived-protocol.ts";
import { GbnfMatcher } from "toolcall-middleware/grammar/testing/gbnf-matcher.ts";
import { chunksOf1To4, ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { deriveFromTemplate } from "./derived-from-template.ts";

const DIR = join(import.meta.dirname, "llama-cpp-templates");
// The command's bound, not the page's: figures here must not depend on this machine's load.
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };
/** A call of strings, and one of an integer, a number, an array and an object. */
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
  { name: "add_numbers", arguments: { a: 2, b: 3.5, flags: [true, false], meta: { x: null } } },
];

/**
 * Formats whose own writing the derived reader does not read back, and why (each is asserted to
 * fail, so a fix shows here): Command R+'s section opens with `Action:\n```json\n[` and closes
 * with `]```` — the scanner takes the fence inside the opener for the section's close.
 */
const OWN_WRITING_NOT_READ = new Set(["CohereForAI-c4ai-command-r-plus-tool_use.jinja"]);

describe("structural tags of derived formats", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort();
  const derived = files.flatMap((file) => {
    const derivation = deriveFromTemplate(readFileSync(join(DIR, file), "utf8"), file, BUDGET);
    return derivation.ok ? [{ file, derivation }] : [];
  });

  it("has a tag for every derived format but those no fixed text opens, and a reason for each other", () => {
    const withTag = derived.filter(({ derivation }) => "tag" in derivedStructuralTag(derivation.format));
    const reasons = derived.flatMap(({ file, derivation }) => {
      const result = derivedStructuralTag(derivation.format);
      return "reason" in result ? [`${file}: ${result.reason}`] : [];
    });
    expect(withTag.length + reasons.length).toBe(derived.length);
    for (const reason of reasons) expect(reason).toMatch(/no fixed text opens a call/);
    for (const { derivation } of withTag) expect(derivation.protocol.structuralTag).toBeDefined();
    // Formats whose arguments are tagged one by one have tags too (GLM, Qwen3-Coder, MiniMax M2, DeepSeek V3.2, Kimi K3, …).
    expect(withTag.filter(({ derivation }) => derivation.format.call.kind === "name-then-tagged").length).toBeGreaterThanOrEqual(16);
  });

  for (const { file, derivation } of derived) {
    const result = derivedStructuralTag(derivation.format);
    if (!("tag" in result)) continue;
    for (const call of CALLS) {
      it(`${file}: ${call.name} written as the format writes it is what the grammar allows, and reads back as that call`, () => {
        const named = result.tag(ROUND_TRIP_TOOLS, { name: call.name });
        const forced = structuralTagToGbnf({ ...named, format: { ...named.format, stop_after_first: true } as typeof named.format });
        const written = writeDerivedCalls(derivation.format, [{ id: "call0", ...call }]);
        expect(new GbnfMatcher(forced.grammar).accepts(written), `${forced.grammar}\n---\n${written}`).toBe(true);
        expect(() => structuralTagToGbnf(result.tag(ROUND_TRIP_TOOLS, "auto"))).not.toThrow();
        const text = `Let me look.\n${written}`;
        for (const chunks of [[text], chunksOf1To4(text)]) {
          const read = parseAll(derivation.protocol, ROUND_TRIP_TOOLS, chunks);
          const calls = read.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
          if (OWN_WRITING_NOT_READ.has(file)) expect(calls).not.toEqual([call]);
          else expect(calls).toEqual([call]);
        }
      });
    }
  }

  it("a tagged format whose word names the value's type writes and allows the template's word for each type", () => {
    const deepseek = derived.find(({ file }) => file === "deepseek-ai-DeepSeek-V3.2.jinja")!.derivation.format;
    const shape = deepseek.call as { typeWords?: Record<string, string> };
    expect(shape.typeWords).toEqual({ string: "true", number: "false", boolean: "false", array: "false", object: "false" });
    const kimi = derived.find(({ file }) => file === "Kimi-K3.jinja")!.derivation.format;
    expect((kimi.call as { typeWords?: Record<string, string> }).typeWords).toEqual({ string: "string", number: "number", boolean: "boolean", array: "array", object: "object" });
    const grammar = structuralTagToGbnf(derivedTag(deepseek)(ROUND_TRIP_TOOLS, { name: "add_numbers" })).grammar;
    const matcher = new GbnfMatcher(grammar);
    const call = (word: string) =>
      `<｜DSML｜function_calls><｜DSML｜invoke name="add_numbers">\n<｜DSML｜parameter name="a" string="${word}">2</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`;
    expect([matcher.accepts(call("false")), matcher.accepts(call("true"))]).toEqual([true, false]);
  });
});

function derivedTag(format: Parameters<typeof derivedStructuralTag>[0]) {
  const result = derivedStructuralTag(format);
  if (!("tag" in result)) throw new Error(result.reason);
  return result.tag;
}
