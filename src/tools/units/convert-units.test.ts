import { describe, expect, it } from "vitest";
import type { ToolContext } from "toolcall-middleware/types.ts";
import { createConvertUnitsTool, UnitConversionError } from "./convert-units.ts";
import { convertUnits } from "./unit-conversion.ts";
import { UNITS } from "./unit-table.ts";

const context = { signal: new AbortController().signal } as ToolContext;

describe("convertUnits", () => {
  it.each([
    [5, "km", "m", 5000],
    [1, "mile", "km", 1.609344],
    [12, "inches", "ft", 1],
    [100, "Kilometres", "miles", 62.1371192237],
    [1, "kg", "lb", 2.20462262185],
    [16, "oz", "pounds", 1],
    [100, "°C", "°F", 212],
    [32, "fahrenheit", "celsius", 0],
    [0, "K", "celsius", -273.15],
    [-40, "deg F", "degrees C", -40],
    [20, "C", "K", 293.15],
    [1, "gallon", "liters", 3.785411784],
    [1000, "ml", "l", 1],
    [1, "m3", "L", 1000],
    [60, "mph", "km/h", 96.56064],
    [36, "kph", "m/s", 10],
    [10, "knots", "km / h", 18.52],
  ])("%d %s → %s = %d", (value, from, to, expected) => {
    expect(convertUnits(value, from, to).result).toBeCloseTo(expected, 6);
  });

  it("reports canonical symbols and the quantity", () => {
    expect(convertUnits(2, "kilometers", "meters")).toEqual({ value: 2, from: "km", to: "m", result: 2000, quantity: "length" });
  });

  it("hides floating-point noise", () => {
    expect(convertUnits(0.1, "m", "cm").result).toBe(10);
  });

  it("round-trips every unit through its quantity's other units", () => {
    for (const a of UNITS) {
      for (const b of UNITS.filter((u) => u.quantity === a.quantity)) {
        const there = convertUnits(300, a.symbol, b.symbol).result;
        expect(convertUnits(there, b.symbol, a.symbol).result).toBeCloseTo(300, 6);
      }
    }
  });

  it("refuses incompatible units, naming both quantities", () => {
    expect(() => convertUnits(1, "kg", "m")).toThrow(UnitConversionError);
    expect(() => convertUnits(1, "kg", "m")).toThrow(/Cannot convert mass \(kg\) to length \(m\)/);
    expect(() => convertUnits(1, "mph", "°C")).toThrow(/speed .* temperature/);
  });

  it("refuses unknown units and lists the known ones", () => {
    expect(() => convertUnits(1, "furlong", "m")).toThrow(/Unknown unit 'furlong' \(from\).*length: mm, cm, m/);
    expect(() => convertUnits(1, "m", "")).toThrow(/Unknown unit '' \(to\)/);
    expect(() => convertUnits(1, "constructor", "m")).toThrow(/Unknown unit/);
  });

  it("refuses temperatures below absolute zero", () => {
    expect(() => convertUnits(-300, "°C", "K")).toThrow(/below absolute zero/);
  });
});

describe("convert_units tool", () => {
  const tool = createConvertUnitsTool();

  it("has the contract name and parameters", () => {
    expect(tool.name).toBe("convert_units");
    expect(tool.parameters).toMatchObject({
      properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
      required: ["value", "from", "to"],
    });
  });

  it("converts", async () => {
    await expect(tool.execute({ value: 3, from: "ft", to: "in" }, context)).resolves.toMatchObject({ result: 36 });
  });

  it("rejects invalid arguments before converting", async () => {
    await expect(tool.execute({ value: "3", from: "ft", to: "in" }, context)).rejects.toThrow(/Invalid arguments.*value/);
    await expect(tool.execute({ value: 3, from: "ft" }, context)).rejects.toThrow(/to:/);
    await expect(tool.execute({ value: Infinity, from: "ft", to: "in" }, context)).rejects.toThrow();
  });
});
