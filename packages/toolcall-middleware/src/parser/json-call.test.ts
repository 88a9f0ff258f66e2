import { describe, expect, it } from "vitest";
import { readCallObject, readJsonCallBody } from "./json-call.ts";

describe("readCallObject", () => {
  it("reads name and arguments", () => {
    expect(readCallObject({ name: "f", arguments: { a: 1 } })).toEqual({ ok: true, call: { name: "f", arguments: { a: 1 }, repairs: [] } });
  });

  it("accepts aliases for the name and the arguments, each a repair", () => {
    const r = readCallObject({ tool_name: "f", args: { a: 1 } });
    expect(r).toMatchObject({ ok: true, call: { name: "f", arguments: { a: 1 } } });
    expect(r.ok && r.call.repairs.map((x) => x.kind)).toEqual(["name-key", "args-key"]);
  });

  it("reads missing or null arguments as {} and says so", () => {
    for (const item of [{ name: "f" }, { name: "f", arguments: null }, { name: "f", arguments: "" }]) {
      const r = readCallObject(item);
      expect(r).toMatchObject({ ok: true, call: { arguments: {} } });
      expect(r.ok && r.call.repairs).toHaveLength(1);
    }
  });

  it("takes an object without a name as the arguments when the tag named the tool", () => {
    expect(readCallObject({ location: "x" }, "get_weather")).toMatchObject({ ok: true, call: { name: "get_weather", arguments: { location: "x" } } });
  });

  it("keeps an argument called name as an argument when the format named the tool (issue #28)", () => {
    expect(readCallObject({ name: "John" }, "get_age")).toEqual({ ok: true, call: { name: "get_age", arguments: { name: "John" }, repairs: [] } });
    expect(readCallObject({ name: "test", value: 123 }, "process_data")).toMatchObject({ call: { name: "process_data", arguments: { name: "test", value: 123 } } });
    // Another tool's name with "arguments" is still the arguments: the format chose the tool.
    expect(readCallObject({ name: "other", arguments: { a: 1 } }, "get_age")).toMatchObject({ call: { name: "get_age", arguments: { name: "other", arguments: { a: 1 } } } });
  });

  it("unwraps only the same call written out again where the format named the tool", () => {
    expect(readCallObject({ name: "get_age", arguments: { name: "John" } }, "get_age")).toMatchObject({ ok: true, call: { name: "get_age", arguments: { name: "John" } } });
  });

  it("refuses what is not a call", () => {
    expect(readCallObject("text")).toMatchObject({ ok: false, kind: "invalid-json" });
    expect(readCallObject({ arguments: {} })).toMatchObject({ ok: false, kind: "missing-tool-name" });
    expect(readCallObject({ name: "f", arguments: "not json" })).toMatchObject({ ok: false, kind: "invalid-arguments", name: "f" });
  });
});

describe("readJsonCallBody", () => {
  it("reads an array of calls, and refuses an empty one", () => {
    const r = readJsonCallBody('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]');
    expect(r.ok && r.outcomes.map((o) => o.ok && o.call.name)).toEqual(["a", "b"]);
    expect(readJsonCallBody("[]")).toMatchObject({ ok: false, kind: "missing-tool-name" });
  });

  it("reports JSON it cannot read", () => {
    expect(readJsonCallBody('{"name": "a", "arguments": {"x": }')).toMatchObject({ ok: false, kind: "invalid-json" });
  });
});
