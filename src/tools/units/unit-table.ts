// The units convert_units knows: each with its quantity, its canonical symbol, the names people
// and models write for it, and how it maps to the quantity's base unit.

export type Quantity = "length" | "mass" | "temperature" | "volume" | "speed";

export interface UnitDefinition {
  symbol: string;
  quantity: Quantity;
  aliases: string[];
  /** base = value * factor + offset (offset only for temperatures). */
  factor: number;
  offset?: number;
}

const unit = (quantity: Quantity, symbol: string, factor: number, aliases: string[], offset?: number): UnitDefinition => ({
  symbol,
  quantity,
  factor,
  aliases,
  ...(offset === undefined ? {} : { offset }),
});

// Base units: metre, kilogram, kelvin, litre, metre per second.
export const UNITS: UnitDefinition[] = [
  unit("length", "mm", 0.001, ["millimeter", "millimeters", "millimetre", "millimetres"]),
  unit("length", "cm", 0.01, ["centimeter", "centimeters", "centimetre", "centimetres"]),
  unit("length", "m", 1, ["meter", "meters", "metre", "metres"]),
  unit("length", "km", 1000, ["kilometer", "kilometers", "kilometre", "kilometres"]),
  unit("length", "in", 0.0254, ["inch", "inches", "\""]),
  unit("length", "ft", 0.3048, ["foot", "feet", "'"]),
  unit("length", "yd", 0.9144, ["yard", "yards"]),
  unit("length", "mi", 1609.344, ["mile", "miles"]),
  unit("length", "nmi", 1852, ["nautical mile", "nautical miles"]),

  unit("mass", "mg", 1e-6, ["milligram", "milligrams"]),
  unit("mass", "g", 0.001, ["gram", "grams"]),
  unit("mass", "kg", 1, ["kilogram", "kilograms", "kilo", "kilos"]),
  unit("mass", "t", 1000, ["tonne", "tonnes", "metric ton", "metric tons"]),
  unit("mass", "oz", 0.028349523125, ["ounce", "ounces"]),
  unit("mass", "lb", 0.45359237, ["lbs", "pound", "pounds"]),
  unit("mass", "st", 6.35029318, ["stone", "stones"]),

  unit("temperature", "°C", 1, ["c", "celsius", "degc", "degree celsius", "degrees celsius", "centigrade"], 273.15),
  unit("temperature", "°F", 5 / 9, ["f", "fahrenheit", "degf", "degree fahrenheit", "degrees fahrenheit"], 273.15 - (32 * 5) / 9),
  unit("temperature", "K", 1, ["k", "kelvin", "kelvins"]),

  unit("volume", "ml", 0.001, ["milliliter", "milliliters", "millilitre", "millilitres", "cm3", "cm³", "cc"]),
  unit("volume", "cl", 0.01, ["centiliter", "centiliters", "centilitre", "centilitres"]),
  unit("volume", "dl", 0.1, ["deciliter", "deciliters", "decilitre", "decilitres"]),
  unit("volume", "l", 1, ["liter", "liters", "litre", "litres", "dm3", "dm³"]),
  unit("volume", "m³", 1000, ["m3", "cubic meter", "cubic meters", "cubic metre", "cubic metres"]),
  unit("volume", "tsp", 0.00492892159375, ["teaspoon", "teaspoons"]),
  unit("volume", "tbsp", 0.01478676478125, ["tablespoon", "tablespoons"]),
  unit("volume", "fl oz", 0.0295735295625, ["floz", "fluid ounce", "fluid ounces", "us fluid ounce"]),
  unit("volume", "cup", 0.2365882365, ["cups", "us cup"]),
  unit("volume", "pt", 0.473176473, ["pint", "pints", "us pint"]),
  unit("volume", "qt", 0.946352946, ["quart", "quarts", "us quart"]),
  unit("volume", "gal", 3.785411784, ["gallon", "gallons", "us gallon", "us gallons"]),
  unit("volume", "imp gal", 4.54609, ["imperial gallon", "imperial gallons", "uk gallon", "uk gallons"]),

  unit("speed", "m/s", 1, ["mps", "meters per second", "metres per second", "meter per second", "metre per second"]),
  unit("speed", "km/h", 1000 / 3600, ["kmh", "kph", "kmph", "km per hour", "kilometers per hour", "kilometres per hour", "kilometer per hour", "kilometre per hour"]),
  unit("speed", "mph", 1609.344 / 3600, ["mi/h", "miles per hour", "mile per hour"]),
  unit("speed", "kn", 1852 / 3600, ["knot", "knots", "kt", "kts"]),
  unit("speed", "ft/s", 0.3048, ["fps", "feet per second", "foot per second"]),
];
