import { describe, expect, it } from "vitest";
import { encodeInBlobs, readJsonBlob } from "./json-blob.ts";
import { recordedLogs } from "./recorded-logs.test-helper.ts";
import { decodeEventLog, SharedTextCodec, type DecodeIssue } from "../log-encoding/shared-text.ts";

describe("event records stored as JSON blobs", () => {
  it("encodes a large log a slice at a time, with a turn for the page before each slice, and reads back exactly", async () => {
    const events = Object.values(await recordedLogs()).flat();
    expect(events.length).toBeGreaterThan(1_000);
    let pauses = 0;
    let encodedSincePause = true;
    const blobs = await encodeInBlobs(new SharedTextCodec(), events, 100, async () => {
      expect(encodedSincePause).toBe(true); // no two turns in a row: each is followed by one slice
      pauses += 1;
      encodedSincePause = false;
      await Promise.resolve();
      encodedSincePause = true;
    });
    expect(blobs).toHaveLength(Math.ceil(events.length / 100));
    expect(pauses).toBe(blobs.length);
    const records = ((await Promise.all(blobs.map(readJsonBlob))) as unknown[][]).flat();
    const issues: DecodeIssue[] = [];
    expect(decodeEventLog(records, issues)).toEqual(events);
    expect(issues).toEqual([]);
  });
});
