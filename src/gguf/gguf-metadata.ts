// Reads the metadata part of a GGUF file (its header's key/values) through a byte-range reader,
// so a page or worker reads only the first megabytes of a file of hundreds. A GGUF is a file a
// person drops in: every count and length is checked against limits before anything is sized
// from it, and a refusal names the key it was reading.
//
// Layout (GGUF v2/v3, little-endian): "GGUF", version u32, tensor count u64, key/value count u64,
// then each key (u64 length + UTF-8) with a value type u32 and the value; an array is an element
// type u32, a count u64 and the elements.

export type GgufScalar = number | bigint | boolean | string;
/** Array values keep a compact form: numbers in typed arrays, strings in a string array. */
export type GgufArray =
  | { kind: "strings"; values: string[] }
  | { kind: "numbers"; type: GgufNumberType; values: Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array }
  | { kind: "booleans"; values: boolean[] }
  | { kind: "arrays"; values: GgufArray[] };
export type GgufValue = GgufScalar | GgufArray;

export type GgufNumberType = "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "u64" | "i64" | "f64";

export interface GgufMetadata {
  version: number;
  tensorCount: number;
  /** The key/values in file order. */
  values: ReadonlyMap<string, GgufValue>;
  /** Bytes from the start of the file to the end of the key/values. */
  metadataBytes: number;
}

export interface GgufLimits {
  /** Most key/values in a header (llama.cpp's models have fewer than 100). */
  maxEntries: number;
  /** Longest key or string value in bytes (a chat template is the longest, tens of KB). */
  maxStringBytes: number;
  /** Most elements in one array (Gemma 3 has 262,144 tokens). */
  maxArrayLength: number;
  /** Most bytes the metadata may span (Gemma 3's is about 6 MB). */
  maxMetadataBytes: number;
}

export const DEFAULT_GGUF_LIMITS: GgufLimits = {
  maxEntries: 4096,
  maxStringBytes: 4 * 1024 * 1024,
  maxArrayLength: 4 * 1024 * 1024,
  maxMetadataBytes: 256 * 1024 * 1024,
};

/** Reads `length` bytes at `offset`; may return fewer only at the end of the file. */
export type GgufByteReader = (offset: number, length: number) => Promise<Uint8Array>;

export class GgufFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GgufFormatError";
  }
}

const TYPE_NAMES = ["u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64"] as const;
const NUMBER_SIZES: Record<GgufNumberType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8 };
const CHUNK_BYTES = 1024 * 1024;

/** Reads forward through the file in chunks, keeping only what is not consumed yet. */
class ForwardReader {
  private buffer = new Uint8Array(0);
  private bufferStart = 0;
  private position = 0;
  // ignoreBOM keeps a leading U+FEFF: Gemma 3 has tokens "\uFEFF//" beside "//".
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(
    private readonly read: GgufByteReader,
    private readonly limits: GgufLimits,
  ) {}

  get offset(): number {
    return this.position;
  }

  /** The next `length` bytes, a view valid until the next call. */
  async take(length: number, what: string): Promise<DataView> {
    const end = this.position + length;
    if (end > this.limits.maxMetadataBytes) {
      throw new GgufFormatError(`The GGUF metadata is larger than ${this.limits.maxMetadataBytes} bytes (at ${what}): not read.`);
    }
    const bufferEnd = this.bufferStart + this.buffer.length;
    if (end > bufferEnd) {
      const keepFrom = this.position - this.bufferStart;
      const want = Math.max(CHUNK_BYTES, end - bufferEnd);
      const more = await this.read(bufferEnd, want);
      const joined = new Uint8Array(this.buffer.length - keepFrom + more.length);
      joined.set(this.buffer.subarray(keepFrom), 0);
      joined.set(more, this.buffer.length - keepFrom);
      this.buffer = joined;
      this.bufferStart = this.position;
      if (this.bufferStart + this.buffer.length < end) {
        throw new GgufFormatError(`The GGUF file ends inside its metadata (at ${what}, byte ${this.position}): it is truncated.`);
      }
    }
    const view = new DataView(this.buffer.buffer, this.buffer.byteOffset + (this.position - this.bufferStart), length);
    this.position = end;
    return view;
  }

  async u32(what: string): Promise<number> {
    return (await this.take(4, what)).getUint32(0, true);
  }

  /** A u64 count or length, refused above `max` (a number past 2^53 is refused too). */
  async count(what: string, max: number): Promise<number> {
    const value = (await this.take(8, what)).getBigUint64(0, true);
    if (value > BigInt(max)) throw new GgufFormatError(`The GGUF ${what} is ${value}, more than the ${max} allowed: the file is damaged or not a model.`);
    return Number(value);
  }

  async string(what: string): Promise<string> {
    const length = await this.count(`length of ${what}`, this.limits.maxStringBytes);
    const view = await this.take(length, what);
    try {
      return this.decoder.decode(new Uint8Array(view.buffer, view.byteOffset, length));
    } catch {
      throw new GgufFormatError(`The GGUF ${what} is not valid UTF-8.`);
    }
  }
}

function typeName(type: number, key: string): (typeof TYPE_NAMES)[number] {
  const name = TYPE_NAMES[type];
  if (name === undefined) throw new GgufFormatError(`The GGUF key "${key}" has an unknown value type ${type}.`);
  return name;
}

async function readScalar(reader: ForwardReader, type: (typeof TYPE_NAMES)[number], key: string): Promise<GgufScalar> {
  if (type === "string") return reader.string(`value of "${key}"`);
  if (type === "bool") {
    const byte = (await reader.take(1, `value of "${key}"`)).getUint8(0);
    if (byte > 1) throw new GgufFormatError(`The GGUF key "${key}" holds ${byte} where a boolean (0 or 1) belongs.`);
    return byte === 1;
  }
  if (type === "array") throw new GgufFormatError(`The GGUF key "${key}" nests an array where a value belongs.`);
  const view = await reader.take(NUMBER_SIZES[type], `value of "${key}"`);
  return numberAt(view, 0, type);
}

function numberAt(view: DataView, at: number, type: GgufNumberType): number | bigint {
  switch (type) {
    case "u8": return view.getUint8(at);
    case "i8": return view.getInt8(at);
    case "u16": return view.getUint16(at, true);
    case "i16": return view.getInt16(at, true);
    case "u32": return view.getUint32(at, true);
    case "i32": return view.getInt32(at, true);
    case "f32": return view.getFloat32(at, true);
    case "f64": return view.getFloat64(at, true);
    case "u64": return safeInteger(view.getBigUint64(at, true));
    case "i64": return safeInteger(view.getBigInt64(at, true));
  }
}

/** A 64-bit integer as a number where it is exact, else a bigint. */
function safeInteger(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}

function typedArray(type: GgufNumberType, length: number): Extract<GgufArray, { kind: "numbers" }>["values"] {
  switch (type) {
    case "u8": return new Uint8Array(length);
    case "i8": return new Int8Array(length);
    case "u16": return new Uint16Array(length);
    case "i16": return new Int16Array(length);
    case "u32": return new Uint32Array(length);
    case "i32": return new Int32Array(length);
    case "f32": return new Float32Array(length);
    case "f64": return new Float64Array(length);
    case "u64": return new BigUint64Array(length);
    case "i64": return new BigInt64Array(length);
  }
}

async function readArray(reader: ForwardReader, key: string, limits: GgufLimits, depth: number): Promise<GgufArray> {
  if (depth > 4) throw new GgufFormatError(`The GGUF key "${key}" nests arrays more than 4 deep.`);
  const elementType = typeName(await reader.u32(`element type of "${key}"`), key);
  const length = await reader.count(`element count of "${key}"`, limits.maxArrayLength);
  if (elementType === "string") {
    const values = new Array<string>(length);
    for (let i = 0; i < length; i++) values[i] = await reader.string(`element ${i} of "${key}"`);
    return { kind: "strings", values };
  }
  if (elementType === "array") {
    const values: GgufArray[] = [];
    for (let i = 0; i < length; i++) values.push(await readArray(reader, key, limits, depth + 1));
    return { kind: "arrays", values };
  }
  if (elementType === "bool") {
    const view = await reader.take(length, `elements of "${key}"`);
    return { kind: "booleans", values: Array.from({ length }, (_, i) => view.getUint8(i) !== 0) };
  }
  const size = NUMBER_SIZES[elementType];
  const view = await reader.take(length * size, `elements of "${key}"`);
  const values = typedArray(elementType, length);
  for (let i = 0; i < length; i++) values[i] = numberAt(view, i * size, elementType) as never;
  return { kind: "numbers", type: elementType, values };
}

/** Reads a GGUF file's header key/values. Throws `GgufFormatError` with a clear message on bad bytes. */
export async function readGgufMetadata(read: GgufByteReader, limits: Partial<GgufLimits> = {}): Promise<GgufMetadata> {
  const bounds = { ...DEFAULT_GGUF_LIMITS, ...limits };
  const reader = new ForwardReader(read, bounds);
  const magic = await reader.take(4, "the magic number").catch((error: unknown) => {
    throw error instanceof GgufFormatError ? new GgufFormatError("This is not a GGUF file: it is shorter than a GGUF header.") : error;
  });
  if (magic.getUint32(0, false) !== 0x47475546) throw new GgufFormatError('This is not a GGUF file: it does not start with "GGUF".');
  const version = await reader.u32("version");
  if (version < 2 || version > 3) throw new GgufFormatError(`This GGUF file has version ${version}; the lab reads versions 2 and 3.`);
  const tensorCount = await reader.count("tensor count", 1_000_000);
  const entries = await reader.count("key/value count", bounds.maxEntries);
  const values = new Map<string, GgufValue>();
  for (let i = 0; i < entries; i++) {
    const key = await reader.string(`key ${i}`);
    const type = typeName(await reader.u32(`value type of "${key}"`), key);
    const value = type === "array" ? await readArray(reader, key, bounds, 0) : await readScalar(reader, type, key);
    if (values.has(key)) throw new GgufFormatError(`The GGUF key "${key}" appears twice.`);
    values.set(key, value);
  }
  return { version, tensorCount, values, metadataBytes: reader.offset };
}

// Typed look-ups: each returns undefined when the key is absent, and throws when it holds another type.

export function ggufString(metadata: GgufMetadata, key: string): string | undefined {
  const value = metadata.values.get(key);
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new GgufFormatError(`The GGUF key "${key}" should hold text.`);
  return value;
}

export function ggufNumber(metadata: GgufMetadata, key: string): number | undefined {
  const value = metadata.values.get(key);
  if (value === undefined) return undefined;
  if (typeof value !== "number") throw new GgufFormatError(`The GGUF key "${key}" should hold a number.`);
  return value;
}

export function ggufBoolean(metadata: GgufMetadata, key: string): boolean | undefined {
  const value = metadata.values.get(key);
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw new GgufFormatError(`The GGUF key "${key}" should hold true or false.`);
  return value;
}

export function ggufStrings(metadata: GgufMetadata, key: string): string[] | undefined {
  const value = metadata.values.get(key);
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value.kind !== "strings") throw new GgufFormatError(`The GGUF key "${key}" should hold a list of texts.`);
  return value.values;
}

export function ggufNumbers(metadata: GgufMetadata, key: string): ArrayLike<number> | undefined {
  const value = metadata.values.get(key);
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value.kind !== "numbers" || value.values instanceof BigInt64Array || value.values instanceof BigUint64Array) {
    throw new GgufFormatError(`The GGUF key "${key}" should hold a list of numbers.`);
  }
  return value.values;
}

/** A reader over a Blob or File (a dropped or picked file): reads only the slices asked for. */
export function ggufReaderForBlob(blob: Blob): GgufByteReader {
  return async (offset, length) => new Uint8Array(await blob.slice(offset, Math.min(blob.size, offset + length)).arrayBuffer());
}

/** A reader over a URL with HTTP Range requests (a server that ignores Range is refused). */
export function ggufReaderForUrl(url: string, fetchImpl: typeof fetch = fetch): GgufByteReader {
  return async (offset, length) => {
    const response = await fetchImpl(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
    if (response.status === 416) return new Uint8Array(0);
    if (!response.ok) throw new Error(`The GGUF file at ${url} could not be read (${response.status} ${response.statusText}).`);
    if (response.status !== 206) {
      await response.body?.cancel();
      throw new Error(`The server of ${url} does not answer byte-range requests (status ${response.status}), so the lab would have to download the whole file to read its metadata.`);
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}
