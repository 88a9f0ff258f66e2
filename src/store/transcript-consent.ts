// A replay transcript named by a link (?transcript=<URL>) on another site waits here until the
// person says yes: until then nothing is fetched from it, and it is not remembered. Yes loads
// it as the replay engine's transcript (which remembers it, as any chosen transcript).
import { createStore, type StoreApi } from "zustand/vanilla";
import { isCrossOriginTranscript, readEngineChoiceFromUrl, withoutTranscript } from "../engine/replay/index.ts";
import type { Engines } from "./engine-store.ts";

export interface TranscriptConsentState {
  /** The other site's transcript URL the page address asks for, awaiting a yes or no. */
  pending: string | null;
}

export type TranscriptConsentStore = StoreApi<TranscriptConsentState>;

export function createTranscriptConsentStore(): TranscriptConsentStore {
  return createStore<TranscriptConsentState>()(() => ({ pending: null }));
}

/**
 * The page address the engines may follow at once: a transcript from another origin is taken
 * out of it and held for the person's answer.
 */
export function holdForeignTranscript(consent: TranscriptConsentStore, search: string, pageHref: string): string {
  const choice = readEngineChoiceFromUrl(search);
  if (choice?.engine !== "replay" || !choice.transcript || !isCrossOriginTranscript(choice.transcript, pageHref)) return search;
  consent.setState({ pending: choice.transcript });
  return withoutTranscript(search);
}

/** Where the yes to another site's transcript is kept, so a remembered choice loads without asking again. */
const CONSENT_KEY = "toolcall-lab:transcript-consent";

function consentedTo(url: string): boolean {
  try {
    return localStorage.getItem(CONSENT_KEY) === url;
  } catch {
    return false;
  }
}

/**
 * The transcript remembered from an earlier visit, if it is on another site and the person never
 * said yes to it here (an older version remembered such links without asking): held for an
 * answer like a link's. True when it was held, so the engines start on a built-in one instead.
 */
export function holdRememberedForeignTranscript(consent: TranscriptConsentStore, remembered: string, pageHref: string): boolean {
  if (!isCrossOriginTranscript(remembered, pageHref) || consentedTo(remembered)) return false;
  consent.setState({ pending: remembered });
  return true;
}

export function allowForeignTranscript(consent: TranscriptConsentStore, engines: Pick<Engines, "selectReplay">): void {
  const { pending } = consent.getState();
  consent.setState({ pending: null });
  if (!pending) return;
  try {
    localStorage.setItem(CONSENT_KEY, pending);
  } catch {
    // Without storage the next visit asks again: safe.
  }
  void engines.selectReplay(pending);
}

export function refuseForeignTranscript(consent: TranscriptConsentStore): void {
  consent.setState({ pending: null });
}
