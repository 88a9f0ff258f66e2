// The playground's "auto" choice: every registered protocol's parser reads the output, the ones
// that find calls are named, and the result shown is the first one's.
import { describe, expect, it } from "vitest";
import { AUTO_PROTOCOL, runPlayground } from "./playground-parse.ts";

const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];

describe("the playground's auto choice", () => {
  it("names the formats that find calls and shows the output as the first reads it", () => {
    const result = runPlayground({ output: '[get_weather(city="Paris")]', protocol: AUTO_PROTOCOL, tools, chunking: { kind: "whole" } });
    expect(result.detected).toEqual(["pythonic"]);
    expect(result.protocol).toBe("pythonic");
    expect(result.result.calls.map((c) => c.arguments)).toEqual([{ city: "Paris" }]);
  });

  it("names none for plain prose", () => {
    const result = runPlayground({ output: "It is sunny in Paris.", protocol: AUTO_PROTOCOL, tools, chunking: { kind: "whole" } });
    expect(result.detected).toEqual([]);
    expect(result.result.calls).toEqual([]);
  });
});
