// Splits a text at the vocabulary's special tokens the way llama.cpp does before tokenizing
// (tokenizer_st_partition): each special token in turn, longest first, is cut out of every piece
// of text still unsplit. llama.cpp tries every special token against the text (Gemma 3 has
// 6,414); here a trie first finds the few that occur at all, so the cost follows the text.
import type { GgufVocabulary } from "./gguf-vocabulary.ts";
import { TOKEN_TYPE } from "./gguf-vocabulary.ts";

export type Fragment = { kind: "text"; text: string } | { kind: "special"; id: number };

interface TrieNode {
  children: Map<string, TrieNode>;
  id: number;
}

export class SpecialTokenSplitter {
  private readonly root: TrieNode = { children: new Map(), id: -1 };
  /** Each special token's place in llama.cpp's order (longest first). */
  private readonly order = new Map<number, number>();

  constructor(private readonly vocabulary: GgufVocabulary) {
    vocabulary.specials.forEach((id, place) => {
      this.order.set(id, place);
      let node = this.root;
      for (const unit of vocabulary.tokens[id]!) {
        let child = node.children.get(unit);
        if (!child) {
          child = { children: new Map(), id: -1 };
          node.children.set(unit, child);
        }
        node = child;
      }
      node.id = id;
    });
  }

  /** The special tokens that occur in the text, in llama.cpp's order. */
  private occurring(text: string, parseSpecial: boolean): number[] {
    const found = new Set<number>();
    for (let start = 0; start < text.length; start++) {
      let node = this.root.children.get(text[start]!);
      for (let at = start + 1; node; at++) {
        if (node.id >= 0) found.add(node.id);
        if (at >= text.length) break;
        node = node.children.get(text[at]!);
      }
    }
    const types = this.vocabulary.types;
    // Without parse_special llama.cpp still splits at user-defined tokens, not at control or unknown ones.
    return [...found].filter((id) => parseSpecial || types[id] === TOKEN_TYPE.userDefined).sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }

  split(text: string, parseSpecial: boolean): Fragment[] {
    let fragments: Fragment[] = text.length > 0 ? [{ kind: "text", text }] : [];
    for (const id of this.occurring(text, parseSpecial)) {
      const token = this.vocabulary.tokens[id]!;
      const next: Fragment[] = [];
      for (const fragment of fragments) {
        if (fragment.kind !== "text") {
          next.push(fragment);
          continue;
        }
        let from = 0;
        for (let at = fragment.text.indexOf(token); at >= 0; at = fragment.text.indexOf(token, from)) {
          if (at > from) next.push({ kind: "text", text: fragment.text.slice(from, at) });
          next.push({ kind: "special", id });
          from = at + token.length;
        }
        if (from < fragment.text.length) next.push({ kind: "text", text: fragment.text.slice(from) });
      }
      fragments = next;
    }
    return fragments;
  }
}
