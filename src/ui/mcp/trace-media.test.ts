import { describe, expect, it } from "vitest";
import { mediaIn, shortenData } from "./trace-media.ts";

describe("media in a recorded MCP response", () => {
  const response = {
    jsonrpc: "2.0",
    id: 4,
    result: {
      content: [
        { type: "text", text: "chart" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
        { type: "image", mimeType: "image/png", data: "A… (900001 characters, too long to keep in the log)" },
      ],
    },
  };

  it("finds images and audio whose data the log kept, not ones it cut", () => {
    expect(mediaIn(response)).toEqual([
      { kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { kind: "audio", mimeType: "audio/wav", data: "UklGRg==" },
    ]);
    expect(mediaIn({ jsonrpc: "2.0", method: "tools/call" })).toEqual([]);
  });

  it("shortens long data for the JSON view and leaves the rest alone", () => {
    const long = { result: { content: [{ type: "image", data: "B".repeat(500), mimeType: "image/png" }], structuredContent: { data: "short" } } };
    expect(shortenData(long)).toEqual({
      result: { content: [{ type: "image", data: `${"B".repeat(120)}… (500 characters)`, mimeType: "image/png" }], structuredContent: { data: "short" } },
    });
  });
});
