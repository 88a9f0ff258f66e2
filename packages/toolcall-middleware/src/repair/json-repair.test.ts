import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseJsonLenient, type LenientJsonResult } from "./json-repair.ts";

function repaired(text: string) {
  const result = parseJsonLenient(text);
  if (!result.ok) throw new Error(`expected a repair, got failure: ${result.message}`);
  return result;
}

function failure(text: string): string {
  const result: LenientJsonResult = parseJsonLenient(text);
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.message;
}

const kinds = (text: string) => repaired(text).repairs.map((r) => r.kind);

describe("parseJsonLenient: valid JSON", () => {
  it("parses strict JSON with no repairs", () => {
    expect(parseJsonLenient('{"a": [1, 2.5, "x"], "b": null}')).toEqual({ ok: true, value: { a: [1, 2.5, "x"], b: null }, repairs: [] });
  });

  it("agrees with JSON.parse on any JSON value, without repairs", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const result = parseJsonLenient(text);
        expect(result).toEqual({ ok: true, value: JSON.parse(text), repairs: [] });
      }),
    );
  });
});

describe("parseJsonLenient: repairs", () => {
  it("removes trailing commas in objects and arrays", () => {
    const result = repaired('{"a": [1, 2,], "b": 3,}');
    expect(result.value).toEqual({ a: [1, 2], b: 3 });
    expect(result.repairs.map((r) => [r.kind, r.before, r.after])).toEqual([
      ["trailing-comma", ",]", "]"],
      ["trailing-comma", ",}", "}"],
    ]);
  });

  it("reads single-quoted strings and keys, keeping apostrophes and double quotes inside", () => {
    const result = repaired(`{'city': 'it's "Seoul"'}`);
    expect(result.value).toEqual({ city: `it's "Seoul"` });
    expect(result.repairs.map((r) => r.kind)).toEqual(["single-quotes", "single-quotes"]);
    expect(result.repairs[1]).toMatchObject({ before: `'it's "Seoul"'`, after: JSON.stringify(`it's "Seoul"`) });
  });

  it("quotes unquoted keys", () => {
    const result = repaired('{location: "Seoul", unit_1: "c"}');
    expect(result.value).toEqual({ location: "Seoul", unit_1: "c" });
    expect(result.repairs.map((r) => [r.kind, r.before, r.after])).toEqual([
      ["unquoted-key", "location", '"location"'],
      ["unquoted-key", "unit_1", '"unit_1"'],
    ]);
  });

  it("reads Python True/False/None", () => {
    const result = repaired('{"a": True, "b": False, "c": None}');
    expect(result.value).toEqual({ a: true, b: false, c: null });
    expect(result.repairs.map((r) => [r.kind, r.before, r.after])).toEqual([
      ["python-literal", "True", "true"],
      ["python-literal", "False", "false"],
      ["python-literal", "None", "null"],
    ]);
  });

  it("escapes unescaped quotes inside a string", () => {
    const result = repaired('{"text": "he said "hi" to me", "n": 1}');
    expect(result.value).toEqual({ text: 'he said "hi" to me', n: 1 });
    expect(result.repairs).toHaveLength(1);
    expect(result.repairs[0]).toMatchObject({
      kind: "unescaped-quote",
      before: '"he said "hi" to me"',
      after: '"he said \\"hi\\" to me"',
    });
  });

  it("keeps an inner quote that ends the whole text's last string", () => {
    expect(repaired('{"text": "say "yes""}').value).toEqual({ text: 'say "yes"' });
  });

  it("adds missing final braces and brackets, one repair per closer", () => {
    const result = repaired('{"name": "f", "arguments": {"xs": [1, 2');
    expect(result.value).toEqual({ name: "f", arguments: { xs: [1, 2] } });
    expect(result.repairs.map((r) => r.kind)).toEqual(["missing-closing-bracket", "missing-closing-brace", "missing-closing-brace"]);
    expect(result.repairs[0]?.after.endsWith("]")).toBe(true);
  });

  it("strips a ```json fence around the object", () => {
    const result = repaired('```json\n{"a": 1}\n```');
    expect(result.value).toEqual({ a: 1 });
    expect(result.repairs.map((r) => r.kind)).toEqual(["code-fence"]);
  });

  it("combines a fence with other repairs", () => {
    expect(kinds("```\n{'a': True,}\n```")).toEqual(["code-fence", "single-quotes", "python-literal", "trailing-comma"]);
  });

  it("lets the first quote close a string when no quote fits the inner-quote rule", () => {
    // The key's quote is followed by a space and "1", so the rule alone would run to the end.
    expect(failure('{"a" 1}')).toMatch(/expected ":" after the key "a"/);
  });

  it("escapes raw line breaks inside strings", () => {
    const result = repaired('{"code": "line 1\nline 2"}');
    expect(result.value).toEqual({ code: "line 1\nline 2" });
    expect(result.repairs.map((r) => r.kind)).toEqual(["control-character"]);
  });

  it("drops extra closing braces after the value", () => {
    const result = repaired('{"a": {"b": 1}}}');
    expect(result.value).toEqual({ a: { b: 1 } });
    expect(result.repairs.map((r) => [r.kind, r.before])).toEqual([["extra-closing-bracket", "}"]]);
  });

  it("inserts a missing comma between members", () => {
    const result = repaired('{"a": 1\n "b": 2}');
    expect(result.value).toEqual({ a: 1, b: 2 });
    expect(result.repairs.map((r) => r.kind)).toEqual(["missing-comma"]);
  });

  it("reads an invalid escape as the character itself", () => {
    const result = repaired('{"a": "it\\\'s"}');
    expect(result.value).toEqual({ a: "it's" });
    expect(result.repairs.map((r) => r.kind)).toEqual(["invalid-escape"]);
  });

  it("gives each repair the span of the original snippet", () => {
    const text = "{a: True}";
    const result = repaired(text);
    for (const repair of result.repairs) {
      expect(text.slice(repair.span!.start, repair.span!.end)).toBe(repair.before);
    }
  });

  it("keeps a __proto__ key as data", () => {
    const value = repaired("{'__proto__': {'x': 1}}").value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it("repairs any JSON object with its commas made trailing, to the same value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => k !== "__proto__"), fc.jsonValue(), { minKeys: 1 }), (object) => {
        const text = JSON.stringify(object).replace(/}$/, ",}");
        const result = repaired(text);
        expect(result.value).toEqual(JSON.parse(JSON.stringify(object)));
        expect(result.repairs.map((r) => r.kind)).toEqual(["trailing-comma"]);
      }),
    );
  });

  it("repairs any JSON object with its final brace missing, to the same value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => k !== "__proto__"), fc.jsonValue(), { minKeys: 1 }), (object) => {
        const text = JSON.stringify(object).slice(0, -1);
        const result = repaired(text);
        expect(result.value).toEqual(JSON.parse(JSON.stringify(object)));
        expect(result.repairs.map((r) => r.kind)).toEqual(["missing-closing-brace"]);
      }),
    );
  });
});

describe("parseJsonLenient: failures", () => {
  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ['{"a": "unterminated', /unterminated string/],
    ['{"a": ', /value of "a" is missing/],
    ['{"a": 1} and some prose', /unexpected text after the JSON value/],
    ['{"a": undefined}', /unexpected word "undefined"/],
    ['{"a": @}', /unexpected "@"/],
    ['{"a": 01}', /expected a number/],
    ['{"a": "\\u12"}', /invalid \\u escape/],
    ["[1 2]", /expected "," or "]"/],
  ])("refuses %j with a clear message", (text, message) => {
    expect(failure(text)).toMatch(message);
  });

  it("never throws, whatever the text: it returns a value or a message", () => {
    const jsonish = fc.array(fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "'", "\\", "a", "1", "-", ".", "e", " ", "\n", "True", "None", "```json\n", "\u00e9"), { maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(fc.string(), jsonish.map((parts) => parts.join(""))), (text) => {
        const result = parseJsonLenient(text);
        if (result.ok) expect(result.repairs.every((r) => typeof r.kind === "string" && typeof r.message === "string")).toBe(true);
        else expect(result.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("never repairs a cut-off JSON value into a different value: a truncated string is refused", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => k !== "__proto__"), fc.string(), { minKeys: 1 }), fc.nat(), (object, cut) => {
        const text = JSON.stringify(object);
        const prefix = text.slice(0, 1 + (cut % (text.length - 1)));
        const result = parseJsonLenient(prefix);
        if (!result.ok) return;
        // Whatever it repaired, the strings it kept are whole strings of the original.
        for (const [key, value] of Object.entries(result.value as Record<string, string>)) {
          expect(Object.hasOwn(object, key)).toBe(true);
          expect(object[key]).toBe(value);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    expect(failure("[".repeat(10_000))).toMatch(/nested deeper/);
  });
});

describe("the strict read comes first", () => {
  // parseJsonLenient skips JSON.parse where it must fail (a cut-off body); whatever JSON.parse
  // reads must still be read strictly, with no repairs.
  it("reads every strict JSON text as JSON.parse does, with no repairs", () => {
    const texts = ['{"a": 1}', " [1, 2] ", '"x"', '""', "0", "-1.5e3", "7", "true", "false", "null", "\n\t{}\r\n", "[[]]", '{"a": {"b": [true, null]}}'];
    for (const text of texts) expect(parseJsonLenient(text), text).toEqual({ ok: true, value: JSON.parse(text), repairs: [] });
  });

  it("agrees with JSON.parse on random texts: strict where it succeeds", () => {
    const alphabet = ['{', '}', '[', ']', '"', ":", ",", " ", "\n", "1", "-", "e", "t", "r", "u", "n", "l", "a", "f", "s", "0"];
    let seed = 29;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let strict = 0;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        continue;
      }
      strict++;
      expect(parseJsonLenient(text), JSON.stringify(text)).toEqual({ ok: true, value, repairs: [] });
    }
    expect(strict).toBeGreaterThan(100);
  });
});
