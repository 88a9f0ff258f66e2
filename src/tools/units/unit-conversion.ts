// Converting a value between units (the table is unit-table.ts): convert_units' work, loaded
// when the tool first runs.
import { UnitConversionError } from "./unit-conversion-error.ts";
import { UNITS, type Quantity, type UnitDefinition } from "./unit-table.ts";

/** Lower case, single spaces, "degrees"/"°" folded so "° C", "deg C" and "degC" meet. */
function normalise(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^(?:°|º|deg(?:rees?)?)\s*([cf])$/, "°$1")
    .replace(/\s*\/\s*/g, "/")
    .replace(/^sq(?:uare)? /, "square ");
}

const LOOKUP = new Map<string, UnitDefinition>();
for (const definition of UNITS) {
  for (const name of [definition.symbol, ...definition.aliases]) LOOKUP.set(normalise(name), definition);
}
// Symbols are also accepted with their original case ("K" is kelvin; "k" too, there is no clash).
LOOKUP.set("°c", UNITS.find((u) => u.symbol === "°C") as UnitDefinition);
LOOKUP.set("°f", UNITS.find((u) => u.symbol === "°F") as UnitDefinition);

export function findUnit(name: string): UnitDefinition | undefined {
  return LOOKUP.get(normalise(name));
}

function unitsOf(quantity: Quantity): string {
  return UNITS.filter((u) => u.quantity === quantity)
    .map((u) => u.symbol)
    .join(", ");
}

function requireUnit(name: string, role: "from" | "to"): UnitDefinition {
  const found = findUnit(name);
  if (found) return found;
  const quantities: Quantity[] = ["length", "mass", "temperature", "volume", "speed"];
  throw new UnitConversionError(
    `Unknown unit '${name}' (${role}). Known units — ${quantities.map((q) => `${q}: ${unitsOf(q)}`).join("; ")}.`,
  );
}

export interface Conversion {
  value: number;
  from: string;
  to: string;
  result: number;
  quantity: Quantity;
}

export function convertUnits(value: number, fromName: string, toName: string): Conversion {
  const from = requireUnit(fromName, "from");
  const to = requireUnit(toName, "to");
  if (from.quantity !== to.quantity) {
    throw new UnitConversionError(
      `Cannot convert ${from.quantity} (${from.symbol}) to ${to.quantity} (${to.symbol}): the units measure different things.`,
    );
  }
  const base = value * from.factor + (from.offset ?? 0);
  if (from.quantity === "temperature" && base < 0) {
    throw new UnitConversionError(`${value} ${from.symbol} is below absolute zero.`);
  }
  const raw = (base - (to.offset ?? 0)) / to.factor;
  // Twelve significant digits hide binary floating-point noise such as 0.30000000000000004.
  const result = Number(raw.toPrecision(12));
  return { value, from: from.symbol, to: to.symbol, result: result === 0 ? 0 : result, quantity: from.quantity };
}
