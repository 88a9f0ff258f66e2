import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { allowForeignTranscript, createTranscriptConsentStore, holdForeignTranscript, holdRememberedForeignTranscript, refuseForeignTranscript, type TranscriptConsentStore } from "./transcript-consent.ts";

// A yes loads the transcript into the replay engine: here, engines that only record what they were asked to replay.
const replayed: string[] = [];
const engines = { selectReplay: async (source: string) => void replayed.push(source) };

// Each test has its own consent store, as each page has.
let consent: TranscriptConsentStore;
beforeEach(() => {
  consent = createTranscriptConsentStore();
  replayed.length = 0;
});

describe("a transcript from another site named by a link", () => {
  it("is held for the person's answer, and the engines get the address without it", () => {
    expect(holdForeignTranscript(consent, "?engine=replay&transcript=https://evil.example/t.json", "http://127.0.0.1:4173")).toBe("?engine=replay");
    expect(consent.getState().pending).toBe("https://evil.example/t.json");
    refuseForeignTranscript(consent);
    expect(consent.getState().pending).toBeNull();
  });

  it("is held however the link spells the other host (backslash, tab)", () => {
    for (const transcript of ["/\\127.0.0.1:4361/b.json", "\\\\127.0.0.1:4361/b.json", "/%09/127.0.0.1:4361/b.json"]) {
      const search = `?engine=replay&transcript=${transcript.startsWith("/%09") ? transcript : encodeURIComponent(transcript)}`;
      expect(holdForeignTranscript(consent, search, "http://127.0.0.1:4173/?engine=replay"), transcript).toBe("?engine=replay");
      expect(consent.getState().pending).toBe(decodeURIComponent(transcript));
      refuseForeignTranscript(consent);
    }
  });

  it("lets built-in names and this site's transcripts through unchanged", () => {
    for (const search of ["?engine=replay&transcript=hermes-calculator", "?transcript=/e2e/t.json", "?engine=webllm&model=x", ""]) {
      expect(holdForeignTranscript(consent, search, "http://127.0.0.1:4173")).toBe(search);
    }
    expect(consent.getState().pending).toBeNull();
  });
});

describe("a transcript on another site remembered from an earlier visit", () => {
  const storage = new Map<string, string>();
  beforeEach(() => {
    storage.clear();
    vi.stubGlobal("localStorage", { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("is held for an answer unless the person said yes to it before; a yes is remembered", () => {
    expect(holdRememberedForeignTranscript(consent, "https://evil.example/t.json", "http://127.0.0.1:4173")).toBe(true);
    expect(consent.getState().pending).toBe("https://evil.example/t.json");
    allowForeignTranscript(consent, engines);
    expect(consent.getState().pending).toBeNull();
    expect(replayed).toEqual(["https://evil.example/t.json"]);
    expect(holdRememberedForeignTranscript(consent, "https://evil.example/t.json", "http://127.0.0.1:4173")).toBe(false);
    expect(holdRememberedForeignTranscript(consent, "https://other.example/t.json", "http://127.0.0.1:4173")).toBe(true);
  });

  it("lets built-in names and this site's transcripts through", () => {
    expect(holdRememberedForeignTranscript(consent, "hermes-calculator", "http://127.0.0.1:4173")).toBe(false);
    expect(holdRememberedForeignTranscript(consent, "/transcripts/memory-hermes.json", "http://127.0.0.1:4173")).toBe(false);
    expect(consent.getState().pending).toBeNull();
  });
});
