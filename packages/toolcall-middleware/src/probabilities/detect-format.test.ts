// "Which format is this output?": every registered protocol's samples are named as their own
// format, plain prose as none, and drift is the protocol in use finding nothing where others do.
import { describe, expect, it } from "vitest";
import { protocolsWithSamples } from "../protocols/testing/protocol-samples.ts";
import { listProtocols } from "../protocols/registry.ts";
import { describeDrift, detectFormats, detectFormatsPaced, formatDrift, formatDriftPaced, MAX_DETECTED_CALLS, PIECE_CHARS } from "./detect-format.ts";

const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];
const call = { id: "c1", name: "get_weather", arguments: { city: "Paris" } };

describe("detectFormats", async () => {
  const all = await protocolsWithSamples();
  it.each(all.map(({ protocol, samples }) => [protocol.name, samples] as const))("names %s among the formats of its own sample, with its call", (name, samples) => {
    const detected = detectFormats(samples.benchOutput(call), tools);
    const own = detected.find((f) => f.protocol === name);
    expect(own?.calls[0]).toMatchObject({ name: "get_weather", valid: true });
  });

  it("finds nothing in plain prose", () => {
    const prose = "The weather in Paris is sunny today. I would call a tool, but none is needed: [see] {this} <b>text</b> ok.\n\nThanks!";
    expect(detectFormats(prose, tools)).toEqual([]);
    expect(detectFormats(prose)).toEqual([]);
  });

  it("counts a call to a tool not offered (its format is what is asked), marked not valid", () => {
    const hermes = all.find((x) => x.protocol.name === "hermes")!.samples.benchOutput({ ...call, name: "other" });
    expect(detectFormats(hermes, tools).find((f) => f.protocol === "hermes")?.calls[0]).toMatchObject({ name: "other", valid: false });
  });

  it("keeps the first calls of a long output and says more may follow", () => {
    const hermes = all.find((x) => x.protocol.name === "hermes")!.samples.benchOutput;
    const many = Array.from({ length: 300 }, (_, i) => hermes({ ...call, id: `c${i}`, arguments: { city: `c${i}` } })).join("\n");
    const found = detectFormats(many, tools).find((f) => f.protocol === "hermes")!;
    expect(found.calls).toHaveLength(MAX_DETECTED_CALLS);
    expect(found.calls[0]!.arguments).toEqual({ city: "c0" });
    expect(found.more).toBe(true);
    expect(detectFormats(hermes(call), tools).find((f) => f.protocol === "hermes")!.more).toBeUndefined();
  });

  it("reports drift where the protocol in use found no call but another did, in words", () => {
    const llama = all.find((x) => x.protocol.name === "llama3-json")!.samples.benchOutput(call);
    const drift = formatDrift(llama, "hermes", tools);
    expect(drift.map((f) => f.protocol)).toContain("llama3-json");
    expect(describeDrift(drift.filter((f) => f.protocol === "llama3-json"))).toBe("the model wrote calls in the llama3-json format");
    expect(formatDrift(llama, "llama3-json", tools)).toEqual([]);
  });
});

describe("detectFormats with maxChars", () => {
  // A view on the main thread reads a bounded prefix: 18 parsers over a 960 KB reply was seconds.
  const prose = "Thinking aloud. ".repeat(5_000);
  const late = `${prose}<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`;

  it("reads no further than maxChars (rounded up to a whole piece)", () => {
    expect(detectFormats(late, tools).map((f) => f.protocol)).toContain("hermes");
    expect(detectFormats(late, tools, { maxChars: 65_536 })).toEqual([]);
    expect(formatDrift(late, "llama3-json", tools, { maxChars: 65_536 })).toEqual([]);
  });

  it("says more may follow when it stopped before the end with calls found", () => {
    const early = `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>${prose}`;
    const hermes = detectFormats(early, tools, { maxChars: 4_096 }).find((f) => f.protocol === "hermes");
    expect(hermes).toMatchObject({ calls: [{ name: "get_weather", valid: true }], more: true });
    expect(detectFormats(early, tools).find((f) => f.protocol === "hermes")?.more).toBeUndefined();
  });
});

describe("detectFormatsPaced", () => {
  // The Evaluate view reads a whole 1,000,000-character reply with every parser on the page's
  // main thread: it must give the page a turn after every piece, and find what the whole read finds.
  const prose = "Thinking aloud. ".repeat(5_000);
  const output = `${prose}<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>[get_weather(city="Paris")]`;

  it("finds what detectFormats finds, pausing after each piece a parser reads", async () => {
    let pauses = 0;
    // Without the pre-scan every parser reads the whole output here (fewer calls than it stops
    // at), one piece between pauses; with it, the parsers that cannot find a call read nothing.
    const paced = await detectFormatsPaced(output, tools, async () => {
      pauses += 1;
    }, { prescan: false });
    expect(paced).toEqual(detectFormats(output, tools));
    expect(paced.map((f) => f.protocol)).toContain("hermes");
    expect(pauses).toBe(listProtocols().length * Math.ceil(output.length / PIECE_CHARS));
    let prescanPauses = 0;
    expect(await detectFormatsPaced(output, tools, async () => { prescanPauses += 1; })).toEqual(paced);
    expect(prescanPauses % Math.ceil(output.length / PIECE_CHARS)).toBe(0);
    expect(prescanPauses).toBeLessThan(pauses);
  });

  it("gives the drift formatDrift gives", async () => {
    const pause = () => Promise.resolve();
    expect(await formatDriftPaced(output, "llama3-json", tools, pause)).toEqual(formatDrift(output, "llama3-json", tools));
    expect(await formatDriftPaced(output, "hermes", tools, pause)).toEqual([]);
  });
});
