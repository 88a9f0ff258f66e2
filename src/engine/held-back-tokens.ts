// Tokens whose text llama.cpp held back. While the output might be the start of a stop string
// (`<` could open `<|im_end|>`), llama.cpp's server sends that token with empty text and its own
// probabilities, then the next token with the held text in front of its own (`<tool` for the
// token `tool`); that token's alternatives carry their own texts (`tool`, `script`). Read as
// they come, the held token's probabilities were lost and the next token seemed to be `<tool`
// with alternatives that dropped the `<`. Here each held token gets its own text back (the text
// of its own id among its alternatives), so `<` is a token with its own probability and
// alternatives, and the next one is `tool` with `script` beside it: llama-server's own
// alternatives at that position. A held token's own text is that of its id among its
// alternatives, or, for one held token, the chunk's text less the next token's own. Where neither
// is known, the held text goes to the next token and to each of its alternatives instead, so what
// they say is still what would have been written there.
import type { TokenAlternative, TokenProbability } from "toolcall-middleware/types.ts";

/** A token's own text: that of its own id among its alternatives, where it is there. */
function ownText(token: TokenProbability): string | undefined {
  if (token.id === undefined) return undefined;
  return token.top.find((a) => a.id === token.id)?.text;
}

/** Reads one streamed completion's chunks; create one per completion. */
export class HeldBackTokens {
  private held: TokenProbability[] = [];

  /**
   * One chunk's text and tokens as the step records them, or null for a chunk that only held a
   * token back (no text yet).
   */
  take(text: string, tokens: TokenProbability[] | undefined): { text: string; tokens?: TokenProbability[] } | null {
    if (text === "") {
      if (tokens) this.held.push(...tokens);
      return null;
    }
    if (this.held.length === 0) return { text, ...(tokens ? { tokens } : {}) };
    const held = this.held;
    this.held = [];
    if (!tokens || tokens.length !== 1) return { text, ...(tokens ? { tokens } : {}) };
    const token = tokens[0]!;
    const heldTexts = held.map(ownText);
    const heldText = heldTexts.every((t): t is string => t !== undefined) ? heldTexts.join("") : undefined;
    const own = ownText(token);
    if (heldText !== undefined && text.startsWith(heldText) && (own === undefined || text.slice(heldText.length) === own)) {
      return { text, tokens: [...held.map((t, i) => ({ ...t, text: heldTexts[i]! })), { ...token, text: text.slice(heldText.length) }] };
    }
    // One held token whose own text is not among its alternatives (a grammar or sampling chose an unlikely one): the rest of the text is its.
    if (held.length === 1 && own !== undefined && text.endsWith(own) && text.length > own.length) {
      return { text, tokens: [{ ...held[0]!, text: text.slice(0, text.length - own.length) }, { ...token, text: own }] };
    }
    // The held token's own text is not known: the held text belongs to this token and to each of its alternatives.
    if (own !== undefined && text.endsWith(own) && text.length > own.length) {
      const prefix = text.slice(0, text.length - own.length);
      const top: TokenAlternative[] = token.top.map((a) => ({ ...a, text: prefix + a.text }));
      return { text, tokens: [{ ...token, text, top }] };
    }
    return { text, tokens };
  }
}
