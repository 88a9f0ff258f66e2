// A replay transcript named by a link (?transcript=<URL>) on another site waits here until the
// person says yes: until then nothing is fetched from it, and it is not remembered. Yes loads
// it as the replay engine's transcript (which remembers it, as any chosen transcript).
import { create } from "zustand";
import { isCrossOriginTranscript, readEngineChoiceFromUrl, withoutTranscript } from "../engine/replay/index.ts";
import { selectReplay } from "./engine-store.ts";

interface TranscriptConsentState {
  /** The other site's transcript URL the page address asks for, awaiting a yes or no. */
  pending: string | null;
}

export const useTranscriptConsent = create<TranscriptConsentState>()(() => ({ pending: null }));

/**
 * The page address the engines may follow at once: a transcript from another origin is taken
 * out of it and held for the person's answer.
 */
export function holdForeignTranscript(search: string, pageOrigin: string): string {
  const choice = readEngineChoiceFromUrl(search);
  if (choice?.engine !== "replay" || !choice.transcript || !isCrossOriginTranscript(choice.transcript, pageOrigin)) return search;
  useTranscriptConsent.setState({ pending: choice.transcript });
  return withoutTranscript(search);
}

export function allowForeignTranscript(): void {
  const { pending } = useTranscriptConsent.getState();
  useTranscriptConsent.setState({ pending: null });
  if (pending) void selectReplay(pending);
}

export function refuseForeignTranscript(): void {
  useTranscriptConsent.setState({ pending: null });
}
