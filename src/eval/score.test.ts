// The scorer rule by rule (the rules are listed in score.ts), on BFCL's own cases and answers.
import { describe, expect, it } from "vitest";
import { bfclCase, bfclCategory } from "./bfcl-fixtures.test-helper.ts";
import { normalised, scoreCase, type ScoredCall, type StepOutcome } from "./score.ts";
import { savedCaseLines } from "./saved-case.ts";
import { importBfclSuite, type EvalCase } from "./suite.ts";

function outcome(calls: ScoredCall[], extra: Partial<StepOutcome> = {}): StepOutcome {
  return { calls, parseErrors: [], repairs: [], markupInText: [], ...extra };
}
const call = (name: string, args: Record<string, unknown>): ScoredCall => ({ name, arguments: args });
function score(testCase: EvalCase, calls: ScoredCall[], extra: Partial<StepOutcome> = {}) {
  return scoreCase(testCase, outcome(calls, extra));
}

/** The first allowed value of each parameter ("" meaning: leave it out). */
function rightCalls(testCase: EvalCase): ScoredCall[] {
  // Only parameters the function declares: parallel_multiple_26's answer also lists a "type"
  // that bank.calculate_balance does not have (optional there), which BFCL's checker refuses too.
  return testCase.expected.map((expected) => {
    const declared = testCase.functions.find((fn) => fn.name === expected.name)?.parameters.properties ?? {};
    return { name: expected.name, arguments: realise(Object.fromEntries(Object.entries(expected.parameters).filter(([name]) => name in declared))) };
  });
}

/** An answer's parameters (each a list of allowed values) as one call's arguments: the first allowed value each. */
function realise(parameters: Record<string, unknown[]>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parameters).flatMap(([name, allowed]) => (allowed[0] === "" ? [] : [[name, realiseValue(allowed[0])]])));
}
function realiseValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item && typeof item === "object" && !Array.isArray(item) ? realise(item as Record<string, unknown[]>) : item));
  if (value && typeof value === "object") return realise(value as Record<string, unknown[]>);
  return value;
}

describe("scorer: BFCL's AST rules", () => {
  it("passes every built-in case answered with its first possible answer, and every irrelevance case answered with no call", () => {
    for (const category of ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]) {
      for (const testCase of bfclCategory(category)) {
        const verdict = score(testCase, rightCalls(testCase));
        expect({ id: testCase.id, ...verdict }).toEqual({ id: testCase.id, pass: true, strictPass: true, reason: "" });
      }
    }
  });

  const triangle = () => bfclCase("simple_python_0"); // calculate_triangle_area: base [10], height [5], unit ["units", ""]

  it("C1: an irrelevance case passes if and only if no call is made", () => {
    const irrelevant = bfclCase("irrelevance_0");
    expect(score(irrelevant, []).pass).toBe(true);
    expect(score(irrelevant, [call("determine_body_mass_index", { weight: 70, height: 1.8 })])).toMatchObject({ pass: false, reason: "no call was expected, but it called determine_body_mass_index" });
  });

  it("C2: the number of calls", () => {
    expect(score(triangle(), [])).toMatchObject({ pass: false, reason: "made 0 calls, expected 1" });
    expect(score(triangle(), [], { parseErrors: ["invalid JSON"] }).reason).toBe("made 0 calls, expected 1 (parse error: invalid JSON)");
    const twice = rightCalls(triangle());
    expect(score(triangle(), [...twice, ...twice]).reason).toBe("made 2 calls, expected 1");
    expect(score(bfclCase("parallel_0"), rightCalls(bfclCase("parallel_0")).slice(0, 1)).reason).toBe("made 1 call, expected 2");
  });

  it("C3: parallel calls in any order; each expected call needs its own match", () => {
    const parallel = bfclCase("parallel_0"); // spotify.play Taylor Swift 20, Maroon 5 15
    const [first, second] = rightCalls(parallel);
    expect(score(parallel, [second!, first!]).pass).toBe(true);
    const verdict = score(parallel, [first!, first!]);
    expect(verdict.pass).toBe(false);
    expect(verdict.reason).toMatch(/^no call matches expected call 2 \(spotify\.play\): call 2: artist: "Taylor Swift" is not one of \["Maroon 5"\]/);
    const mixed = bfclCase("parallel_multiple_0");
    expect(score(mixed, rightCalls(mixed).reverse()).pass).toBe(true);
  });

  it("F1: the function's name (multiple: the right one of several)", () => {
    expect(score(triangle(), [call("calculate_area", { base: 10, height: 5 })]).reason).toBe("called calculate_area, expected calculate_triangle_area");
    const multiple = bfclCase("multiple_0"); // triangle_properties.get among circle_properties.get, …
    expect(score(multiple, [call("circle_properties.get", { radius: 3 })]).reason).toBe("called circle_properties.get, expected triangle_properties.get");
  });

  it("F2: every required parameter", () => {
    expect(score(triangle(), [call("calculate_triangle_area", { base: 10 })]).reason).toBe("height: required parameter missing");
  });

  it("F3: no parameter the function or the answer does not have", () => {
    expect(score(triangle(), [call("calculate_triangle_area", { base: 10, height: 5, colour: "red" })]).reason).toBe("colour: unexpected parameter");
  });

  it("F4: types (an integer for a float is accepted; a string for an integer is not)", () => {
    expect(score(triangle(), [call("calculate_triangle_area", { base: "10", height: 5 })]).reason).toBe('base: expected integer, got string "10"');
    expect(score(triangle(), [call("calculate_triangle_area", { base: 10.5, height: 5 })]).reason).toBe("base: expected integer, got float 10.5");
    const restaurants = bfclCase("parallel_multiple_15"); // rating: float, answers [1.0, ""] and [4.0]
    const calls = rightCalls(restaurants).map((c) => (c.arguments.rating === 4 ? { ...c, arguments: { ...c.arguments, rating: 4 } } : c));
    expect(score(restaurants, calls).pass).toBe(true);
    const coordinates = bfclCase("multiple_5"); // a tuple of floats
    const [right] = rightCalls(coordinates);
    expect(score(coordinates, [{ ...right!, arguments: { ...right!.arguments, coordinates: ["46.6", "1.9"] } }]).reason).toMatch(/^coordinates: expected an array of float, got \["46.6","1.9"\]/);
  });

  it("V1: an object key by key", () => {
    const homes = bfclCase("multiple_8"); // budget: {min: [300000], max: [400000]}
    const [right] = rightCalls(homes);
    const withBudget = (budget: unknown) => score(homes, [{ ...right!, arguments: { ...right!.arguments, budget } }]);
    expect(withBudget({ max: 400000, min: 300000 }).pass).toBe(true);
    expect(withBudget({ min: 300000, max: 500000 }).reason).toBe("budget.max: 500000 is not one of [400000]");
    expect(withBudget({ min: 300000 }).reason).toBe("budget.max: missing key");
    expect(withBudget({ min: 300000, max: 400000, currency: "USD" }).reason).toBe("budget.currency: unexpected key");
  });

  it("V3: strings after BFCL's normalisation", () => {
    expect(normalised("San Diego, CA")).toBe("sandiegoca");
    expect(normalised("it's")).toBe('it"s');
    const homes = bfclCase("multiple_8"); // location: ["SD", "San Diego", "San Diego, CA", "CA"]
    const [right] = rightCalls(homes);
    expect(score(homes, [{ ...right!, arguments: { ...right!.arguments, location: "san-diego ca" } }]).pass).toBe(true);
    expect(score(homes, [{ ...right!, arguments: { ...right!.arguments, location: "Los Angeles" } }]).reason).toBe('location: "Los Angeles" is not one of ["SD", "San Diego", "San Diego, CA", "CA"]');
  });

  it("V4: arrays by order", () => {
    const sums = bfclCase("parallel_multiple_0"); // multiples [[3, 5]]
    const calls = rightCalls(sums);
    const reordered = calls.map((c) => (c.name === "math_toolkit.sum_of_multiples" ? { ...c, arguments: { ...c.arguments, multiples: [5, 3] } } : c));
    expect(score(sums, reordered).reason).toMatch(/multiples: \[5,3\] is not one of \[\[3,5\]\]/);
    const route = bfclCase("simple_python_37"); // stops [["Santa Barbara", "Monterey"], ["Monterey", "Santa Barbara"]]
    const [right] = rightCalls(route);
    expect(score(route, [{ ...right!, arguments: { ...right!.arguments, stops: ["monterey", "santa barbara"] } }]).pass).toBe(true);
  });

  it("V5: other values among the allowed ones (the issue's example shape)", () => {
    expect(score(triangle(), [call("calculate_triangle_area", { base: 11, height: 5 })]).reason).toBe("base: 11 is not one of [10]");
  });

  it("F5: an optional parameter is left out only where \"\" is allowed", () => {
    expect(score(triangle(), [call("calculate_triangle_area", { base: 10, height: 5 })]).pass).toBe(true); // unit allows ""
    const quadratic = bfclCase("simple_python_5"); // root_type: ["all"], optional in the function
    expect(score(quadratic, [call("solve_quadratic", { a: 3, b: -11, c: -4 })]).reason).toBe('root_type: left out, but it may not be (one of ["all"])');
  });

  it("strictPass also wants no repair, no coercion, no parse error, no markup left in the text; pass does not", () => {
    const right = rightCalls(triangle());
    expect(score(triangle(), right, { repairs: ['base: "10" → 10 (integer)'] })).toEqual({ pass: true, strictPass: false, reason: 'strict: repaired: base: "10" → 10 (integer)' });
    expect(score(triangle(), right, { parseErrors: ["unfinished call"] })).toMatchObject({ pass: true, strictPass: false, reason: "strict: parse error: unfinished call" });
    expect(score(triangle(), right, { markupInText: ["</tool_call>"] })).toMatchObject({ pass: true, strictPass: false, reason: 'strict: protocol markup left in the text: "</tool_call>"' });
  });

  it("a case that failed to run fails both verdicts with the reason", () => {
    expect(score(triangle(), [], { failure: "the server answered 500" })).toEqual({ pass: false, strictPass: false, reason: "the case failed to run: the server answered 500" });
  });

  it("a reply cut at a limit ran: it fails saying where it was cut, not that it failed to run", () => {
    expect(score(triangle(), [], { cutOff: { limit: "max-tokens", maxTokens: 64 } })).toEqual({ pass: false, strictPass: false, reason: "cut off at max tokens (64)" });
    expect(score(triangle(), [], { cutOff: { limit: "context-window" } }).reason).toBe("cut off at the model's context window");
  });
});

describe("parameters named like what every object inherits", () => {
  // A case built as an import builds it, from JSON text: toString, constructor and __proto__ are own keys there.
  const imported = (questions: string, answers: string) => {
    const suite = importBfclSuite({ questions, answers });
    if (!suite.ok) throw new Error(suite.error);
    return suite.cases[0]!;
  };
  const fn = (properties: string, required: string) => `{"name": "f", "parameters": {"type": "dict", "properties": ${properties}, "required": ${required}}}`;

  it("a required parameter named toString that the call leaves out is missing", () => {
    const testCase = imported(`{"id": "simple_1", "question": [[{"role": "user", "content": "q"}]], "function": [${fn('{"city": {"type": "string"}, "toString": {"type": "string"}}', '["city", "toString"]')}]}`, '{"id": "simple_1", "ground_truth": [{"f": {"city": ["Paris"], "toString": ["x"]}}]}');
    expect(score(testCase, [call("f", { city: "Paris" })])).toEqual({ pass: false, strictPass: false, reason: "toString: required parameter missing" });
    expect(score(testCase, [call("f", { city: "Paris", toString: "x" })]).pass).toBe(true);
  });

  it("an extra toString, constructor or __proto__ argument is an unexpected parameter, not a failure to run", () => {
    const testCase = imported(`{"id": "simple_1", "question": [[{"role": "user", "content": "q"}]], "function": [${fn('{"city": {"type": "string"}}', '["city"]')}]}`, '{"id": "simple_1", "ground_truth": [{"f": {"city": ["Paris"]}}]}');
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      const args = JSON.parse(`{"city": "Paris", "${name}": "x"}`) as Record<string, unknown>;
      expect(score(testCase, [call("f", args)]).reason, name).toBe(`${name}: unexpected parameter`);
    }
    const nested = imported(`{"id": "simple_1", "question": [[{"role": "user", "content": "q"}]], "function": [${fn('{"place": {"type": "dict", "properties": {"city": {"type": "string"}}}}', '["place"]')}]}`, '{"id": "simple_1", "ground_truth": [{"f": {"place": [{"city": ["Paris"]}]}}]}');
    expect(score(nested, [call("f", JSON.parse('{"place": {"city": "Paris", "constructor": "x"}}') as Record<string, unknown>)]).reason).toBe("place.constructor: unexpected key");
    expect(score(nested, [call("f", JSON.parse('{"place": {"city": "Paris"}}') as Record<string, unknown>)]).pass).toBe(true);
  });

  it("a type named like an inherited key is an unknown type, not a crash", () => {
    const testCase = imported(`{"id": "simple_1", "question": [[{"role": "user", "content": "q"}]], "function": [${fn('{"city": {"type": "constructor"}}', '["city"]')}]}`, '{"id": "simple_1", "ground_truth": [{"f": {"city": ["Paris"]}}]}');
    expect(score(testCase, [call("f", { city: "Paris" })]).pass).toBe(true);
  });

  it("a saved case's __proto__ parameter survives saving and importing again", () => {
    const tool = { name: "f", description: "", parameters: JSON.parse('{"type": "object", "properties": {"city": {"type": "string"}, "__proto__": {"type": "string"}}, "required": ["city", "__proto__"]}') as Record<string, unknown> };
    const saved = savedCaseLines({ messages: [{ role: "user", content: "q" }], tools: [tool], calls: [{ name: "f", arguments: JSON.parse('{"city": "Paris", "__proto__": "x"}') as Record<string, unknown> }] }, 1);
    const testCase = imported(saved.question, saved.answer!);
    expect(Object.keys(testCase.expected[0]!.parameters)).toEqual(["city", "__proto__"]);
    expect(Object.keys(testCase.tools[0]!.parameters.properties as object)).toEqual(["city", "__proto__"]);
    expect(score(testCase, [call("f", { city: "Paris" })]).reason).toBe("__proto__: required parameter missing");
    expect(score(testCase, [call("f", JSON.parse('{"city": "Paris", "__proto__": "x"}') as Record<string, unknown>)]).pass).toBe(true);
  });
});
