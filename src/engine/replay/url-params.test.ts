import { describe, expect, it } from "vitest";
import { isCrossOriginTranscript, readEngineChoiceFromUrl, withoutTranscript } from "./url-params.ts";

const page = "http://127.0.0.1:4173";

describe("transcripts named in the page address", () => {
  it("counts only absolute URLs on another origin as another site's", () => {
    expect(isCrossOriginTranscript("https://evil.example/t.json", page)).toBe(true);
    expect(isCrossOriginTranscript("//evil.example/t.json", page)).toBe(true);
    expect(isCrossOriginTranscript("http://127.0.0.1:9999/t.json", page)).toBe(true);
    expect(isCrossOriginTranscript("HTTP://EVIL.example/t.json", page)).toBe(true);
    expect(isCrossOriginTranscript("http://127.0.0.1:4173/transcripts/t.json", page)).toBe(false);
    expect(isCrossOriginTranscript("/transcripts/t.json", page)).toBe(false);
    expect(isCrossOriginTranscript("./t.json", page)).toBe(false);
    expect(isCrossOriginTranscript("hermes-calculator", page)).toBe(false);
  });

  it("reads the address as the browser's fetch will: backslashes are slashes, tabs and newlines vanish", () => {
    // Each of these is fetched from 127.0.0.1:4361, another origin than the page's.
    for (const source of ["/\\127.0.0.1:4361/b.json", "\\\\127.0.0.1:4361/b.json", "/\t/127.0.0.1:4361/b.json", "\t//127.0.0.1:4361/b.json", "/\n/127.0.0.1:4361/b.json", "\\/127.0.0.1:4361/b.json"]) {
      expect(new URL(source, `${page}/`).origin, source).toBe("http://127.0.0.1:4361");
      expect(isCrossOriginTranscript(source, `${page}/?engine=replay`), source).toBe(true);
    }
    expect(isCrossOriginTranscript("javascript:alert(1)", page)).toBe(true);
    expect(isCrossOriginTranscript("/transcripts/\\t.json", `${page}/deep/page?x=1`)).toBe(false);
  });

  it("takes the transcript out of the address and keeps the engine choice", () => {
    const search = "?engine=replay&transcript=https%3A%2F%2Fevil.example%2Ft.json";
    expect(readEngineChoiceFromUrl(search)).toEqual({ engine: "replay", transcript: "https://evil.example/t.json" });
    expect(withoutTranscript(search)).toBe("?engine=replay");
    expect(readEngineChoiceFromUrl(withoutTranscript(search))).toEqual({ engine: "replay" });
    expect(withoutTranscript("?transcript=x")).toBe("");
  });
});
