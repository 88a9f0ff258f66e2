import { describe, expect, it } from "vitest";
import { bfclCategory, bfclFile } from "./bfcl-fixtures.test-helper.ts";
import { bfclToJsonSchema } from "./bfcl-schema.ts";
import { categoryOf, importBfclSuite } from "./suite.ts";

describe("BFCL suite import", () => {
  it("reads each built-in category: at least 40 cases, each with its answer (none for irrelevance)", () => {
    for (const category of ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]) {
      const cases = bfclCategory(category);
      expect(cases.length).toBeGreaterThanOrEqual(40);
      for (const testCase of cases) {
        expect(testCase.category).toBe(category);
        expect(testCase.messages.at(-1)?.role).toBe("user");
        if (category === "irrelevance") expect(testCase.expectsNoCall && testCase.expected.length === 0).toBe(true);
        else expect(testCase.expected.length).toBeGreaterThan(0);
      }
    }
  });

  it("turns BFCL's schema dialect into JSON Schema (dict, float, tuple, any; nested)", () => {
    expect(
      bfclToJsonSchema({
        type: "dict",
        properties: {
          f: { type: "float" },
          t: { type: "tuple", items: { type: "float" } },
          a: { type: "any", description: "x" },
          d: { type: "dict", properties: { n: { type: "integer" } } },
          l: { type: "array", items: { type: "dict", properties: { s: { type: "string" } } } },
        },
        required: ["f"],
      }),
    ).toEqual({
      type: "object",
      properties: {
        f: { type: "number" },
        t: { type: "array", items: { type: "number" } },
        a: { description: "x" },
        d: { type: "object", properties: { n: { type: "integer" } } },
        l: { type: "array", items: { type: "object", properties: { s: { type: "string" } } } },
      },
      required: ["f"],
    });
    const multiple5 = bfclCategory("multiple").find((c) => c.id === "multiple_5")!;
    const tool = multiple5.tools.find((t) => t.name === "weather.get_by_coordinates_date")!;
    expect((tool.parameters.properties as Record<string, { type?: string }>).coordinates?.type).toBe("array");
  });

  it("names the category after the id", () => {
    expect(categoryOf("parallel_multiple_12")).toBe("parallel_multiple");
    expect(categoryOf("live_simple_3-2-1")).toBe("live_simple");
  });

  it("refuses a malformed line with its line number, and keeps nothing", () => {
    const lines = bfclFile("simple_python.questions.jsonl").split("\n").slice(0, 3);
    const broken = [lines[0], lines[1], '{"id": "simple_python_x", "question": [[', lines[2]].join("\n");
    const result = importBfclSuite({ questions: broken, answers: bfclFile("simple_python.answers.jsonl"), questionsName: "q.jsonl" });
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^q\.jsonl line 3: not JSON/) });

    const wrongShape = [lines[0], '{"id": "simple_python_9", "question": "hi", "function": []}'].join("\n");
    const shaped = importBfclSuite({ questions: wrongShape, answers: bfclFile("simple_python.answers.jsonl"), questionsName: "q.jsonl" });
    expect(shaped.ok ? "" : shaped.error).toMatch(/^q\.jsonl line 2: question: /);

    const brokenAnswers = bfclFile("simple_python.answers.jsonl").split("\n").slice(0, 2).join("\n") + '\n{"id": 3}';
    const answers = importBfclSuite({ questions: lines.join("\n"), answers: brokenAnswers, answersName: "a.jsonl" });
    expect(answers.ok ? "" : answers.error).toMatch(/^a\.jsonl line 3: id: /);
  });

  it("refuses a case without its answer, an answer naming a function the case lacks, and multi-turn cases", () => {
    const questions = bfclFile("simple_python.questions.jsonl").split("\n").slice(0, 2).join("\n");
    const missing = importBfclSuite({ questions, answers: bfclFile("simple_python.answers.jsonl").split("\n")[0]! });
    expect(missing.ok ? "" : missing.error).toMatch(/line 2: no possible answer for "simple_python_1"/);
    const foreign = importBfclSuite({ questions, answers: '{"id": "simple_python_0", "ground_truth": [{"nope": {}}]}\n{"id": "simple_python_1", "ground_truth": [{"math.factorial": {"number": [5]}}]}' });
    expect(foreign.ok ? "" : foreign.error).toMatch(/calls "nope", which the case does not offer/);
    const multiTurn = importBfclSuite({ questions: '{"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]], "function": []}', answers: "" });
    expect(multiTurn.ok ? "" : multiTurn.error).toMatch(/line 1: .*2 turns; multi-turn/);
  });

  it("refuses a line nested past the bound with its file and line, instead of overflowing the stack", () => {
    const ok = '{"id": "simple_0", "question": [[{"role": "user", "content": "q"}]], "function": [{"name": "f", "parameters": {"type": "dict", "properties": {"a": {"type": "string"}}}}]}';
    const deep = `{"id": "simple_1", "question": [[{"role": "user", "content": "q"}]], "function": [{"name": "f", "parameters": {"type": "dict", "properties": {"a": ${'{"type": "dict", "properties": {"b": '.repeat(20_000)}{"type": "string"}${"}}".repeat(20_000)}}}}]}`;
    expect(importBfclSuite({ questions: `${ok}\n${deep}`, answers: "", questionsName: "deep.jsonl" })).toEqual({ ok: false, error: "deep.jsonl line 2: nested more than 72 levels deep (a function's schema may nest 64)." });
  });
});
