// convert_units' one error, apart from the conversion code (which loads when the tool first runs).
export class UnitConversionError extends Error {
  override name = "UnitConversionError";
}
