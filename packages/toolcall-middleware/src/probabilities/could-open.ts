// Whether a format's parser could find a call in a text at all, from its CallSyntax alone: every
// call it reads opens with one of its markers' opening texts, or — for a format with markerless
// calls — with one of the characters such a call begins with. A text holding none of them is
// text to that parser whatever else it holds (reasoning and framing tags only split it into
// channels, and a marker prefix held back at a tag is decided as text there, so a marker cannot
// be pieced together across a tag). A markerless call that must be the whole output, or stand at
// its start, begins at the first character that is not a blank — or after a reasoning block, so
// where any reasoning or framing tag occurs that is not ruled out. One indexOf per opener or tag:
// far cheaper than running the parser.
import { THINK_TAGS, type CallSyntax } from "../parser/call-syntax.ts";
import type { ReasoningTags } from "../parser/reasoning-stage.ts";

/** False only where no call of this format can be in `text`; true means "run the parser". */
export function mayHoldCall(text: string, syntax: CallSyntax): boolean {
  for (const marker of syntax.markers) if (marker.open.length > 0 && text.includes(marker.open)) return true;
  const bare = syntax.bare;
  if (!bare) return false;
  if ((bare.placement ?? "whole") === "anywhere") return [...bare.startsWith].some((c) => text.includes(c));
  if (bare.startsWith.includes(text[firstNonBlank(text)] ?? "\u0000")) return true;
  return reasoningTags(syntax).some((tag) => tag.length > 0 && text.includes(tag));
}

/** Every tag the reasoning stage acts on for this format (a channel change may let a markerless call begin). */
function reasoningTags(syntax: CallSyntax): string[] {
  const tags: ReasoningTags | null = syntax.reasoning === undefined ? THINK_TAGS : syntax.reasoning;
  if (!tags) return [];
  return [tags.open, tags.close, ...(tags.alsoOpen ?? []), ...(tags.alsoPairs ?? []).flatMap((p) => [p.open, p.close]), ...(tags.framing ?? [])];
}

/** The scanner's blanks (space, tab, line ends), and no others: where it looks for a markerless call. */
function firstNonBlank(text: string): number {
  let k = 0;
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
  }
  return k;
}
