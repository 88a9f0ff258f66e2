import { describe, expect, it } from "vitest";
import { toParametersSchema, toToolSpec } from "./tool-schema.ts";

describe("toParametersSchema", () => {
  it("keeps an MCP input schema as it is, less the $schema key", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { city: { type: "string", description: "City name" }, days: { type: "integer", minimum: 1 } },
      required: ["city"],
      additionalProperties: false,
    };
    expect(toParametersSchema(schema)).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "City name" }, days: { type: "integer", minimum: 1 } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("gives a schema without properties (a tool without arguments) an empty properties object", () => {
    expect(toParametersSchema({ type: "object" })).toEqual({ type: "object", properties: {} });
    expect(toParametersSchema(undefined)).toEqual({ type: "object", properties: {} });
    expect(toParametersSchema("nonsense")).toEqual({ type: "object", properties: {} });
  });

  it("keeps $defs so that $ref pointers still resolve", () => {
    const schema = { type: "object", properties: { p: { $ref: "#/$defs/point" } }, $defs: { point: { type: "object" } } };
    expect(toParametersSchema(schema)).toEqual(schema);
  });

  it("wraps a non-object root under one `input` argument instead of dropping it", () => {
    expect(toParametersSchema({ type: "string", enum: ["a", "b"] })).toEqual({
      type: "object",
      properties: { input: { type: "string", enum: ["a", "b"] } },
      required: ["input"],
    });
  });
});

describe("toToolSpec", () => {
  it("uses the offered name and the tool's description, falling back to its title", () => {
    expect(toToolSpec({ name: "search", description: " Finds pages. ", inputSchema: { type: "object", properties: {} } }, "alpha__search")).toEqual({
      name: "alpha__search",
      description: "Finds pages.",
      parameters: { type: "object", properties: {} },
    });
    expect(toToolSpec({ name: "s", title: "Search the docs" }, "s").description).toBe("Search the docs");
    expect(toToolSpec({ name: "s" }, "s").description).toBe("The s tool of an MCP server.");
  });
});
