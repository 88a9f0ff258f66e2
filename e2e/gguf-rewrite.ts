// Writes a copy of a GGUF file with one string value of its header replaced (the embedded chat
// template): the header's key/values are copied entry by entry, the tensor descriptions as they
// are, and the tensor data after it at the file's alignment (tensor offsets are counted from the
// data's start, so they hold). Used to run the real SmolLM2 with a template of the test's own,
// dropped on the Model pane (dropGguf).
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { basename } from "node:path";
import { expect, type Page } from "@playwright/test";

const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

class Cursor {
  offset = 0;
  constructor(private readonly bytes: Buffer) {}
  u32(): number {
    const value = this.bytes.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
  u64(): number {
    const value = Number(this.bytes.readBigUInt64LE(this.offset));
    this.offset += 8;
    return value;
  }
  string(): string {
    const length = this.u64();
    const text = this.bytes.toString("utf8", this.offset, this.offset + length);
    this.offset += length;
    return text;
  }
  skipValue(type: number): void {
    if (type === STRING) this.string();
    else if (type === ARRAY) {
      const itemType = this.u32();
      const count = this.u64();
      for (let i = 0; i < count; i++) this.skipValue(itemType);
    } else if (SCALAR_BYTES[type] !== undefined) this.offset += SCALAR_BYTES[type]!;
    else throw new Error(`GGUF value type ${type} is not known`);
  }
}

function ggufString(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

/** Copies `from` to `to` with the string value of `key` set to `value` (added if missing). */
export function rewriteGgufString(from: string, to: string, key: string, value: string): void {
  const input = openSync(from, "r");
  // The header of the models used here (vocabulary included) fits well within 16 MiB.
  const head = Buffer.alloc(16 * 1024 * 1024);
  const headLength = readSync(input, head, 0, head.length, 0);
  const cursor = new Cursor(head.subarray(0, headLength));
  if (head.toString("latin1", 0, 4) !== "GGUF") throw new Error(`${from} is not a GGUF file`);
  cursor.offset = 4;
  const version = cursor.u32();
  const tensors = cursor.u64();
  const entries = cursor.u64();
  const kept: Buffer[] = [];
  let alignment = 32;
  let replaced = false;
  for (let i = 0; i < entries; i++) {
    const start = cursor.offset;
    const name = cursor.string();
    const type = cursor.u32();
    const valueStart = cursor.offset;
    cursor.skipValue(type);
    if (name === "general.alignment") alignment = head.readUInt32LE(valueStart);
    if (name === key) {
      const typeBytes = Buffer.alloc(4);
      typeBytes.writeUInt32LE(STRING);
      kept.push(Buffer.concat([ggufString(key), typeBytes, ggufString(value)]));
      replaced = true;
    } else kept.push(Buffer.from(head.subarray(start, cursor.offset)));
  }
  if (!replaced) {
    const typeBytes = Buffer.alloc(4);
    typeBytes.writeUInt32LE(STRING);
    kept.push(Buffer.concat([ggufString(key), typeBytes, ggufString(value)]));
  }
  const infosStart = cursor.offset;
  for (let i = 0; i < tensors; i++) {
    cursor.string();
    const dims = cursor.u32();
    cursor.offset += dims * 8 + 4 + 8;
  }
  const infos = Buffer.from(head.subarray(infosStart, cursor.offset));
  const dataStart = Math.ceil(cursor.offset / alignment) * alignment;

  const preamble = Buffer.alloc(24);
  preamble.write("GGUF", 0, "latin1");
  preamble.writeUInt32LE(version, 4);
  preamble.writeBigUInt64LE(BigInt(tensors), 8);
  preamble.writeBigUInt64LE(BigInt(replaced ? entries : entries + 1), 16);
  const header = Buffer.concat([preamble, ...kept, infos]);
  const padded = Buffer.concat([header, Buffer.alloc(Math.ceil(header.length / alignment) * alignment - header.length)]);
  const output = openSync(to, "w");
  try {
    writeSync(output, padded);
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    for (let position = dataStart; ; ) {
      const read = readSync(input, chunk, 0, chunk.length, position);
      if (read === 0) break;
      writeSync(output, chunk, 0, read);
      position += read;
    }
  } finally {
    closeSync(output);
    closeSync(input);
  }
}

/**
 * Drops the file at `path` on the Model pane, as a person drags a file from their desktop: the
 * file reaches the page through an input of the test's own (a 98 MB file is streamed to the
 * browser, not sent through the protocol), then a drop event carries it to the pane.
 */
export async function dropGguf(page: Page, path: string): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.id = "test-drop-source";
    input.style.display = "none";
    document.body.append(input);
  });
  await page.locator("#test-drop-source").setInputFiles(path);
  await page.getByTestId("model-panel").evaluate((panel) => {
    const source = document.querySelector<HTMLInputElement>("#test-drop-source")!;
    const data = new DataTransfer();
    data.items.add(source.files![0]!);
    source.remove();
    panel.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
}

/**
 * A copy of the GGUF at `model` with `template` as its chat template, written to `file`, dropped
 * on the Model pane of the page opened at `url`; returns once the page runs it (its engine label
 * names the file).
 */
export async function dropGgufWithTemplate(page: Page, { model, file, template, url }: { model: string; file: string; template: string; url: string }): Promise<void> {
  rewriteGgufString(model, file, "tokenizer.chat_template", template);
  await page.goto(url);
  await expect(page.getByTestId("model-panel")).toBeVisible();
  await dropGguf(page, file);
  await expect(page.getByTestId("engine-label")).toContainText(basename(file), { timeout: 240_000 });
}
