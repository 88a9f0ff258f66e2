// Reads and rewrites a WebAssembly module at the level of its sections, enough to replace the
// bodies of named functions: the function index space (imports first), each function's type, the
// name section's function names, and the code section's bodies. Nothing else is decoded; every
// other section is kept byte for byte, in its place.

export interface WasmSection {
  id: number;
  /** A custom section's name (id 0). */
  name?: string;
  /** The section's payload (for a custom section: after its name). */
  payload: Uint8Array;
}

export class WasmReader {
  at: number;
  constructor(readonly bytes: Uint8Array, at = 0) {
    this.at = at;
  }
  byte(): number {
    if (this.at >= this.bytes.length) throw new Error("the module ends in the middle of a value");
    return this.bytes[this.at++]!;
  }
  /** An unsigned LEB128 number (sizes, counts, indices; up to 2^53). */
  u(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length) throw new Error("a length runs past the end of the module");
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
  name(): string {
    return new TextDecoder().decode(this.take(this.u()));
  }
}

export function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export function readSections(bytes: Uint8Array): WasmSection[] {
  if (!MAGIC.every((b, i) => bytes[i] === b)) throw new Error("not a WebAssembly module (version 1)");
  const reader = new WasmReader(bytes, 8);
  const sections: WasmSection[] = [];
  while (reader.at < bytes.length) {
    const id = reader.byte();
    const payload = reader.take(reader.u());
    if (id === 0) {
      const inner = new WasmReader(payload);
      const name = inner.name();
      sections.push({ id, name, payload: payload.subarray(inner.at) });
    } else sections.push({ id, payload });
  }
  return sections;
}

export function writeModule(sections: WasmSection[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [Uint8Array.from(MAGIC)];
  for (const section of sections) {
    const head = section.id === 0 ? Uint8Array.from([...unsignedLeb(new TextEncoder().encode(section.name ?? "").length), ...new TextEncoder().encode(section.name ?? "")]) : new Uint8Array();
    parts.push(Uint8Array.from([section.id, ...unsignedLeb(head.length + section.payload.length)]), head, section.payload);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Skips one import's description (after its module and field names). */
function skipImportDescription(reader: WasmReader, kind: number): void {
  const limits = () => {
    const flags = reader.byte();
    reader.u();
    if (flags & 1) reader.u();
  };
  if (kind === 0) reader.u(); // function: its type index
  else if (kind === 1) {
    reader.byte(); // table: element type
    limits();
  } else if (kind === 2) limits(); // memory
  else if (kind === 3) reader.take(2); // global: value type, mutability
  else if (kind === 4) {
    reader.byte(); // tag: attribute, type index
    reader.u();
  } else throw new Error(`unknown import kind ${kind}`);
}

export interface ModuleFunctions {
  /** How many functions are imported (they come first in the index space). */
  importedFunctions: number;
  /** The type index of each function, imported and defined, by function index. */
  typeOf: number[];
  /** Each type's encoding (0x60, params, results), by type index. */
  types: Uint8Array[];
  /** Function indices by their names in the name section. */
  indexByName: Map<string, number>;
  /** Names the name section gives to more than one function (a lookup by such a name could pick the wrong one). */
  sharedNames: Set<string>;
  /** Each defined function's body (locals and code), by defined-function position. */
  bodies: Uint8Array[];
}

function readTypes(payload: Uint8Array): Uint8Array[] {
  const reader = new WasmReader(payload);
  const types: Uint8Array[] = [];
  for (let n = reader.u(); n > 0; n--) {
    const start = reader.at;
    if (reader.byte() !== 0x60) throw new Error("only function types are read (no GC types)");
    reader.take(reader.u()); // parameter value types, one byte each for numeric and vector types
    reader.take(reader.u()); // result value types
    types.push(payload.subarray(start, reader.at));
  }
  return types;
}

export function readFunctions(sections: WasmSection[]): ModuleFunctions {
  const section = (id: number) => sections.find((s) => s.id === id);
  const types = section(1) ? readTypes(section(1)!.payload) : [];
  const typeOf: number[] = [];
  let importedFunctions = 0;
  if (section(2)) {
    const reader = new WasmReader(section(2)!.payload);
    for (let n = reader.u(); n > 0; n--) {
      reader.name();
      reader.name();
      const kind = reader.byte();
      if (kind === 0) {
        typeOf.push(reader.u());
        importedFunctions++;
      } else skipImportDescription(reader, kind);
    }
  }
  if (section(3)) {
    const reader = new WasmReader(section(3)!.payload);
    for (let n = reader.u(); n > 0; n--) typeOf.push(reader.u());
  }
  const bodies: Uint8Array[] = [];
  if (section(10)) {
    const reader = new WasmReader(section(10)!.payload);
    for (let n = reader.u(); n > 0; n--) bodies.push(reader.take(reader.u()));
  }
  const indexByName = new Map<string, number>();
  const sharedNames = new Set<string>();
  const names = sections.find((s) => s.id === 0 && s.name === "name");
  if (names) {
    const reader = new WasmReader(names.payload);
    while (reader.at < names.payload.length) {
      const sub = reader.byte();
      const end = reader.u() + reader.at;
      if (sub === 1) {
        for (let n = reader.u(); n > 0; n--) {
          const index = reader.u();
          const name = reader.name();
          if (indexByName.has(name)) sharedNames.add(name);
          indexByName.set(name, index);
        }
      }
      reader.at = end;
    }
  }
  return { importedFunctions, typeOf, types, indexByName, sharedNames, bodies };
}

/** The module with the code section's bodies replaced (by defined-function position). */
export function withBodies(sections: WasmSection[], bodies: Uint8Array[]): WasmSection[] {
  const payload: number[] = [...unsignedLeb(bodies.length)];
  const chunks: Uint8Array[] = [];
  let size = payload.length;
  for (const body of bodies) {
    const head = Uint8Array.from(unsignedLeb(body.length));
    chunks.push(head, body);
    size += head.length + body.length;
  }
  const out = new Uint8Array(size);
  out.set(payload, 0);
  let at = payload.length;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return sections.map((s) => (s.id === 10 ? { id: 10, payload: out } : s));
}

export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
