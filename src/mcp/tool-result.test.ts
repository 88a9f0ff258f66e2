import { describe, expect, it } from "vitest";
import { base64Size, MAX_RESULT_RESOURCES, modelReadableResult, resultResources } from "./tool-result.ts";

describe("modelReadableResult", () => {
  it("gives text content as text, several blocks one per line", () => {
    expect(modelReadableResult({ content: [{ type: "text", text: "first" }, { type: "text", text: "second" }] })).toEqual({ text: "first\nsecond", isError: false });
  });

  it("gives structured content as JSON, once, when the server also sent it as text", () => {
    const structured = { city: "Seoul", temperature: 21.5 };
    expect(
      modelReadableResult({ content: [{ type: "text", text: JSON.stringify(structured, null, 2) }], structuredContent: structured }).text,
    ).toBe('{"city":"Seoul","temperature":21.5}');
  });

  it("keeps text that says more than the structured content", () => {
    expect(modelReadableResult({ content: [{ type: "text", text: "Sunny." }], structuredContent: { ok: true } }).text).toBe('{"ok":true}\nSunny.');
  });

  it("describes images and audio to the model instead of sending their data", () => {
    const { text } = modelReadableResult({
      content: [
        { type: "text", text: "Here is the chart." },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "audio", mimeType: "audio/wav", data: "A".repeat(4096) },
      ],
    });
    expect(text).toBe(
      [
        "Here is the chart.",
        "[image (image/png, 8 B): shown to the person in the debugger; you cannot see its content]",
        "[audio (audio/wav, 3.0 KB): shown to the person in the debugger; you cannot see its content]",
      ].join("\n"),
    );
    expect(text).not.toContain("iVBOR");
  });

  it("describes resource links and embedded resources, giving a text resource's text", () => {
    const { text } = modelReadableResult({
      content: [
        { type: "resource_link", uri: "file:///notes.md", name: "notes", mimeType: "text/markdown", description: "Meeting notes" },
        { type: "resource", resource: { uri: "mem://a", mimeType: "text/plain", text: "alpha" } },
        { type: "resource", resource: { uri: "mem://b", mimeType: "application/pdf", blob: "AAAA" } },
      ],
    });
    expect(text).toBe(
      [
        '[resource link "notes" <file:///notes.md> (text/markdown): Meeting notes]',
        "[resource <mem://a> (text/plain)]\nalpha",
        "[resource <mem://b> (application/pdf), 3 B of binary data: shown to the person in the debugger; you cannot see its content]",
      ].join("\n"),
    );
  });

  it("keeps isError, with the server's message as the text", () => {
    expect(modelReadableResult({ content: [{ type: "text", text: "disk full" }], isError: true })).toEqual({ text: "disk full", isError: true });
  });

  it("says so when there is no content, and names content types it does not know", () => {
    expect(modelReadableResult({ content: [] }).text).toBe("(the tool returned no content)");
    expect(modelReadableResult({ content: [{ type: "hologram" }] }).text).toBe('[content of type "hologram" the lab cannot show the model]');
  });

  it("reads the toolResult of old (2024-10-07) servers", () => {
    expect(modelReadableResult({ toolResult: { answer: 42 } }).text).toBe('{"answer":42}');
  });
});

describe("base64Size", () => {
  it("counts the decoded bytes", () => {
    expect(base64Size("AAAA")).toBe("3 B");
    expect(base64Size("AA==")).toBe("1 B");
    expect(base64Size("A".repeat(2 * 1024 * 1024))).toBe("1.5 MB");
  });
});

describe("resultResources", () => {
  const response = (content: unknown[]) => [
    { direction: "sent", message: { method: "tools/call", params: { content: [{ type: "resource_link", uri: "fake://sent" }] } } },
    { direction: "received", message: { result: { content } } },
  ];

  it("reads links and embedded resources from the recorded response, not from what was sent", () => {
    const found = resultResources(
      response([
        { type: "text", text: '[resource link "x" <fake://text>]' },
        { type: "resource_link", uri: "demo://a", name: "A", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "demo://b", text: "hello" } },
        { type: "resource", resource: { uri: "demo://c", blob: "AAAA", mimeType: "image/png" } },
      ]),
    );
    expect(found).toEqual([
      { kind: "link", uri: "demo://a", name: "A", mimeType: "text/plain" },
      { kind: "embedded", uri: "demo://b", text: "hello" },
      { kind: "embedded", uri: "demo://c", mimeType: "image/png" },
    ]);
  });

  it("keeps a bounded number, skips malformed blocks, and is empty without a trace", () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ type: "resource_link", uri: `demo://${i}` }));
    expect(resultResources(response([{ type: "resource_link" }, { type: "resource", resource: 7 }, ...many]))).toHaveLength(MAX_RESULT_RESOURCES);
    expect(resultResources(undefined)).toEqual([]);
    expect(resultResources([{ direction: "received", message: { error: { message: "no" } } }])).toEqual([]);
  });
});
