import { afterEach, describe, expect, it } from "vitest";
import { holdForeignTranscript, refuseForeignTranscript, useTranscriptConsent } from "./transcript-consent.ts";

afterEach(() => refuseForeignTranscript());

describe("a transcript from another site named by a link", () => {
  it("is held for the person's answer, and the engines get the address without it", () => {
    expect(holdForeignTranscript("?engine=replay&transcript=https://evil.example/t.json", "http://127.0.0.1:4173")).toBe("?engine=replay");
    expect(useTranscriptConsent.getState().pending).toBe("https://evil.example/t.json");
    refuseForeignTranscript();
    expect(useTranscriptConsent.getState().pending).toBeNull();
  });

  it("lets built-in names and this site's transcripts through unchanged", () => {
    for (const search of ["?engine=replay&transcript=hermes-calculator", "?transcript=/e2e/t.json", "?engine=webllm&model=x", ""]) {
      expect(holdForeignTranscript(search, "http://127.0.0.1:4173")).toBe(search);
    }
    expect(useTranscriptConsent.getState().pending).toBeNull();
  });
});
