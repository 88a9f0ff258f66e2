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

  it("takes the transcript out of the address and keeps the engine choice", () => {
    const search = "?engine=replay&transcript=https%3A%2F%2Fevil.example%2Ft.json";
    expect(readEngineChoiceFromUrl(search)).toEqual({ engine: "replay", transcript: "https://evil.example/t.json" });
    expect(withoutTranscript(search)).toBe("?engine=replay");
    expect(readEngineChoiceFromUrl(withoutTranscript(search))).toEqual({ engine: "replay" });
    expect(withoutTranscript("?transcript=x")).toBe("");
  });
});
