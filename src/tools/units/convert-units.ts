import { z } from "zod";
import { defineTool } from "toolcall-middleware/tools/define-tool.ts";
import { UnitConversionError } from "./unit-conversion-error.ts";

export { UnitConversionError };
export type { Conversion } from "./unit-conversion.ts";

export const convertUnitsParameters = z.object({
  value: z.number().describe("The amount to convert"),
  from: z.string().describe("The unit of the value, e.g. 'km', 'miles', '°C', 'lb', 'l', 'mph'"),
  to: z.string().describe("The unit to convert to"),
});

export function createConvertUnitsTool() {
  return defineTool({
    name: "convert_units",
    description: "Convert a value between units of length, mass, temperature, volume or speed (metric, imperial and US units).",
    parameters: convertUnitsParameters,
    execute: async ({ value, from, to }, { signal }) => {
      signal.throwIfAborted();
      if (!Number.isFinite(value)) throw new UnitConversionError(`The value must be a finite number (got ${value}).`);
      // The unit table and the conversion load when the tool first runs, not with the tool list.
      const { convertUnits } = await import("./unit-conversion.ts");
      return convertUnits(value, from, to);
    },
  });
}
