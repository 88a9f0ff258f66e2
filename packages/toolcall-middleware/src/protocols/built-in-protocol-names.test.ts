// The light list of protocol names the lab's first screen reads must say what the registry says.
import { describe, expect, test } from "vitest";
import { builtInProtocolNames, isBuiltInProtocol } from "./built-in-protocol-names.ts";
import { listProtocols } from "./registry.ts";

describe("builtInProtocolNames", () => {
  test("lists every registered protocol's name and label, in registry order", () => {
    expect(builtInProtocolNames).toEqual(listProtocols().map(({ name, label }) => ({ name, label })));
  });

  test("knows a built-in name and no other", () => {
    expect(isBuiltInProtocol("hermes")).toBe(true);
    expect(isBuiltInProtocol("native")).toBe(false);
    expect(isBuiltInProtocol("no-such-protocol")).toBe(false);
  });
});
