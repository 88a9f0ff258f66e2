// Constrained decoding for derived formats: over llama.cpp's vendor templates (fixtures:
// llama-cpp-templates/, SOURCES.md), every format whose arguments are one JSON object gets a
// structural tag; llama.cpp's grammar can be written from it; and a call written exactly as the
// tag forces it is read back, whole and in 1-4-character chunks, as that call by the derived
// protocol (the grammar and the reader agree).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { derivedStructuralTag } from "toolcall-middleware/derive/derived-protocol.ts";
import { chunksOf1To4, ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import type { StructuralTagItem } from "toolcall-middleware/types.ts";
import { deriveFromTemplate } from "./derived-from-template.ts";

const DIR = join(import.meta.dirname, "llama-cpp-templates");
// The command's bound, not the page's: figures here must not depend on this machine's load.
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

describe("structural tags of derived formats", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort();
  const derived = files.flatMap((file) => {
    const derivation = deriveFromTemplate(readFileSync(join(DIR, file), "utf8"), file, BUDGET);
    return derivation.ok ? [{ file, derivation }] : [];
  });

  it("has a tag for every derived format with JSON-object arguments, and a reason for each other", () => {
    const withTag = derived.filter(({ derivation }) => "tag" in derivedStructuralTag(derivation.format));
    const reasons = derived.flatMap(({ file, derivation }) => {
      const result = derivedStructuralTag(derivation.format);
      return "reason" in result ? [`${file}: ${result.reason}`] : [];
    });
    expect(withTag.length + reasons.length).toBe(derived.length);
    expect(withTag.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).toMatch(/tagged one by one|JSON string|no fixed text opens a call/);
    for (const { derivation } of withTag) expect(derivation.protocol.structuralTag).toBeDefined();
  });

  for (const { file, derivation } of derived) {
    const result = derivedStructuralTag(derivation.format);
    if (!("tag" in result)) continue;
    it(`${file}: the grammar is written, and a call as the tag forces it reads back as that call`, () => {
      const tag = result.tag(ROUND_TRIP_TOOLS, "auto");
      expect(() => structuralTagToGbnf(tag)).not.toThrow();
      const items = (tag.format as { tags: StructuralTagItem[] }).tags;
      const item = items.find((t) => t.begin.includes("get_weather"))!;
      const call = { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } };
      const text = `Let me look.\n${item.begin}${JSON.stringify(call.arguments)}${item.end}`;
      for (const chunks of [[text], chunksOf1To4(text)]) {
        const read = parseAll(derivation.protocol, ROUND_TRIP_TOOLS, chunks);
        expect(read.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([call]);
      }
    });
  }
});
