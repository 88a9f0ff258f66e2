// A tokenizer for the scripted model (scripted-pipeline.ts): the given special tokens keep their
// real ids; other text splits into words, runs of spaces and single symbols, each a token with
// an id handed out on first sight. Enough to count tokens the way a model would, roughly, and
// to check that special tokens are one token each.

const PIECE = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
const FIRST_ORDINARY_ID = 1_000;

export class ScriptedTokenizer {
  private readonly idOf = new Map<string, number>();
  private readonly textOf = new Map<number, string>();
  private readonly special: string[];
  private nextId = FIRST_ORDINARY_ID;

  constructor(specialTokens: Record<string, number>) {
    for (const [text, id] of Object.entries(specialTokens)) this.remember(text, id);
    // Longest first, so that no special token is split by a shorter one.
    this.special = Object.keys(specialTokens).sort((a, b) => b.length - a.length);
  }

  encode(text: string): Int32Array {
    const ids: number[] = [];
    let rest = text;
    while (rest.length > 0) {
      const at = this.firstSpecial(rest);
      const plain = at ? rest.slice(0, at.index) : rest;
      for (const piece of plain.match(PIECE) ?? []) ids.push(this.idFor(piece));
      if (!at) break;
      ids.push(this.idFor(at.token));
      rest = rest.slice(at.index + at.token.length);
    }
    return Int32Array.from(ids);
  }

  decode(ids: ArrayLike<number>): string {
    let out = "";
    for (let i = 0; i < ids.length; i++) out += this.textOf.get(ids[i] as number) ?? "";
    return out;
  }

  /** The id of one piece of text (a special token, or a piece encode would make). */
  idFor(piece: string): number {
    const known = this.idOf.get(piece);
    if (known !== undefined) return known;
    const id = this.nextId++;
    this.remember(piece, id);
    return id;
  }

  /**
   * For WebLLM's grammar set-up (XGrammar reads the token table once): the ids handed out so far,
   * special tokens included. A text that a constrained generation will use must be encoded first.
   */
  getVocabSize(): number {
    return Math.max(this.nextId, ...this.textOf.keys()) + 1;
  }

  /** A token's vocabulary string (web-tokenizers' idToToken): here, its text. */
  idToToken(id: number): string {
    return this.textOf.get(id) ?? "";
  }

  dispose(): void {}

  private remember(text: string, id: number): void {
    this.idOf.set(text, id);
    this.textOf.set(id, text);
  }

  private firstSpecial(text: string): { index: number; token: string } | undefined {
    let best: { index: number; token: string } | undefined;
    for (const token of this.special) {
      const index = text.indexOf(token);
      if (index !== -1 && (!best || index < best.index)) best = { index, token };
    }
    return best;
  }
}
