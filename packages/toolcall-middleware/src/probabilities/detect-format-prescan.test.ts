// The pre-scan that skips a protocol's parser where no call of its format can be changes no
// result: detectFormats with it equals detectFormats running every parser, on every protocol's
// samples (calls, not-a-call bodies, forgeries, hostile shapes) and on random mixes of them cut
// at random places (markers split, reasoning tags around and inside them).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolCallScanner } from "../parser/scanner.ts";
import { protocolsWithSamples } from "../protocols/testing/protocol-samples.ts";
import { mayHoldCall } from "./could-open.ts";
import { detectFormats } from "./detect-format.ts";

const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];

const same = (output: string, maxChars?: number) => {
  const options = maxChars === undefined ? {} : { maxChars };
  expect(detectFormats(output, tools, options)).toEqual(detectFormats(output, tools, { ...options, prescan: false }));
};

describe("detectFormats' pre-scan", async () => {
  const all = await protocolsWithSamples();
  const call = (i: number, name = "get_weather") => ({ id: `c${i}`, name, arguments: { city: `City ${i}` } });
  const pieces: string[] = [
    "Plain prose with [brackets], {braces} and <angle> marks. ",
    "<think>",
    "</think>",
    "\n",
    "  ",
    '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    '[get_weather(city="Paris")]',
  ];
  for (const { samples } of all) {
    pieces.push(samples.benchOutput(call(1)), samples.benchOutput(call(2, "other")), samples.notACall, ...samples.forgeries, ...Object.values(samples.hostileShapes(3)));
  }

  it("skips parsers: a Hermes call is no call to most formats, and prose none to the marker-only ones", () => {
    const hermes = all.find((x) => x.protocol.name === "hermes")!;
    const output = hermes.samples.benchOutput(call(1));
    const skipped = all.filter(({ protocol }) => {
      const parser = protocol.createParser(tools);
      return parser instanceof ToolCallScanner && !mayHoldCall(output, parser.syntax);
    });
    expect(skipped.length).toBeGreaterThan(all.length / 2);
    expect(skipped.map((x) => x.protocol.name)).not.toContain("hermes");
  });

  it.each(all.map(({ protocol, samples }) => [protocol.name, samples] as const))("gives the same result on %s's samples", (_name, samples) => {
    same(samples.benchOutput(call(1)));
    same(samples.benchOutput(call(1, "other")));
    same(samples.notACall);
    for (const forgery of samples.forgeries) same(forgery);
    for (const shape of Object.values(samples.hostileShapes(20))) same(shape);
  });

  it("gives the same result on random mixes of every format's pieces, cut anywhere", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(pieces.length - 1), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
        // A reasoning block first: a markerless call may still begin after it.
        fc.constantFrom("", "<think>plan</think>", "<think>plan</think>\n", "</think>", "<|channel|>final<|message|>"),
        (picks, a, b, maxChars, lead) => {
          const whole = lead + picks.map((i) => pieces[i]!).join("");
          // A random slice: markers and bodies cut at either end.
          const from = a % (whole.length + 1);
          const to = from + (b % (whole.length - from + 1));
          same(whole, maxChars);
          same(whole.slice(from, to), maxChars);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("gives the same result where a markerless call follows a reasoning block (it may still be the output's call)", () => {
    const bareJson = '{"name": "get_weather", "parameters": {"city": "Paris"}}';
    const found = detectFormats(`<think>plan</think>${bareJson}`, tools).map((f) => f.protocol);
    expect(found).toContain("llama3-json");
    same(`<think>plan</think>${bareJson}`);
    same(`<think>plan</think>\n[get_weather(city="Paris")]`);
  });

  it("gives the same result on long outputs read in several pieces, with and without maxChars", () => {
    const hermes = all.find((x) => x.protocol.name === "hermes")!.samples;
    const prose = "Thinking aloud, no call here. ".repeat(400);
    for (const { samples } of all) {
      const late = `${prose}${samples.benchOutput(call(7))}`;
      same(late);
      same(late, 4_096);
      same(`${hermes.benchOutput(call(1))}${prose}${samples.benchOutput(call(8))}`, 8_192);
    }
  });
});
