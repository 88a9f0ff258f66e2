// Encoded event records kept in IndexedDB as Blobs of their JSON text. IndexedDB stores a Blob
// by reference: the put does not clone its contents in the page's task, as it does for objects
// and strings (80 MB of JSON slices stored as strings were copied in one 1.2 s task; the same
// events as objects in one of 4 s). Used by the conversation store's chunks and the eval store's
// cases alike, so both write and read the same form.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { SharedTextCodec } from "../log-encoding/shared-text.ts";

/** The JSON text of `value` as a Blob (JSON drops what a tool's result may hold that is not data). */
export function jsonBlob(value: unknown): Blob {
  return new Blob([JSON.stringify(value)], { type: "application/json" });
}

/** What `jsonBlob` stored, as data again. */
export async function readJsonBlob(blob: Blob): Promise<unknown> {
  return JSON.parse(await blob.text()) as unknown;
}

/**
 * `events` written with `codec` in slices of `perSlice` events, each slice a Blob of its
 * records' JSON; `pause` is awaited before each slice (a turn for the page), so no task of the
 * page encodes more than one slice.
 */
export async function encodeInBlobs(codec: SharedTextCodec, events: readonly LoopEvent[], perSlice: number, pause: () => Promise<void>): Promise<Blob[]> {
  const blobs: Blob[] = [];
  for (let at = 0; at < events.length; at += perSlice) {
    await pause();
    blobs.push(jsonBlob(codec.encodeAll(events.slice(at, at + perSlice))));
  }
  return blobs;
}
