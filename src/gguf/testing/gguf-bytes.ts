// Writes small GGUF headers for tests: well-formed ones from a list of key/values, and the raw
// pieces to build damaged ones.

export type TestValue =
  | { type: "string"; value: string }
  | { type: "u32" | "i32" | "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "strings"; value: string[] }
  | { type: "i32s" | "f32s"; value: number[] };

const TYPE_IDS = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

export class GgufBytes {
  private readonly parts: number[] = [];

  bytes(values: ArrayLike<number>): this {
    for (let i = 0; i < values.length; i++) this.parts.push(values[i]! & 0xff);
    return this;
  }

  u32(value: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, value, true);
    return this.bytes(new Uint8Array(view.buffer));
  }

  u64(value: bigint | number): this {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(value), true);
    return this.bytes(new Uint8Array(view.buffer));
  }

  f32(value: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, value, true);
    return this.bytes(new Uint8Array(view.buffer));
  }

  string(value: string): this {
    const encoded = new TextEncoder().encode(value);
    return this.u64(encoded.length).bytes(encoded);
  }

  header(entries: number, version = 3, tensors = 0): this {
    return this.bytes(new TextEncoder().encode("GGUF")).u32(version).u64(tensors).u64(entries);
  }

  entry(key: string, entry: TestValue): this {
    this.string(key);
    switch (entry.type) {
      case "string": return this.u32(TYPE_IDS.string).string(entry.value);
      case "u32": return this.u32(TYPE_IDS.u32).u32(entry.value);
      case "i32": return this.u32(TYPE_IDS.i32).u32(entry.value >>> 0);
      case "f32": return this.u32(TYPE_IDS.f32).f32(entry.value);
      case "bool": return this.u32(TYPE_IDS.bool).bytes([entry.value ? 1 : 0]);
      case "strings": {
        this.u32(TYPE_IDS.array).u32(TYPE_IDS.string).u64(entry.value.length);
        for (const text of entry.value) this.string(text);
        return this;
      }
      case "i32s": {
        this.u32(TYPE_IDS.array).u32(TYPE_IDS.i32).u64(entry.value.length);
        for (const n of entry.value) this.u32(n >>> 0);
        return this;
      }
      case "f32s": {
        this.u32(TYPE_IDS.array).u32(TYPE_IDS.f32).u64(entry.value.length);
        for (const n of entry.value) this.f32(n);
        return this;
      }
    }
  }

  toBytes(): Uint8Array<ArrayBuffer> {
    return Uint8Array.from(this.parts);
  }
}

/** A whole GGUF header with these key/values (and no tensors). */
export function ggufWith(entries: Record<string, TestValue>): Uint8Array<ArrayBuffer> {
  const writer = new GgufBytes().header(Object.keys(entries).length);
  for (const [key, value] of Object.entries(entries)) writer.entry(key, value);
  return writer.toBytes();
}

/** A byte reader over bytes in memory, as `readGgufMetadata` takes. */
export function readerOver(bytes: Uint8Array): (offset: number, length: number) => Promise<Uint8Array> {
  return (offset, length) => Promise.resolve(bytes.slice(offset, Math.min(bytes.length, offset + length)));
}
