// "Any text that does not contain these strings" as GBNF: the states of a matcher for the
// strings (how much of one is matched so far) become rules, each going on with the characters
// that extend a match and with any other character back to the start. Free text before a tool
// call is this, with the call's triggers as the strings, so a plain (not lazy) grammar can hold
// both the free text and the call.
import { GbnfBuilder, gbnfClassChar, gbnfLiteral } from "./gbnf-builder.ts";

interface State {
  prefix: string;
  next: Map<string, number>;
  fail: number;
  /** A whole string is matched here: the text may not reach this state. */
  forbidden: boolean;
}

function automaton(strings: readonly string[]): State[] {
  const states: State[] = [{ prefix: "", next: new Map(), fail: 0, forbidden: false }];
  for (const text of strings) {
    let at = 0;
    for (const char of text) {
      let to = states[at]!.next.get(char);
      if (to === undefined) {
        to = states.length;
        states.push({ prefix: states[at]!.prefix + char, next: new Map(), fail: 0, forbidden: false });
        states[at]!.next.set(char, to);
      }
      at = to;
    }
    states[at]!.forbidden = true;
  }
  // Failure links (breadth first), as Aho–Corasick: where a match goes on after a mismatch.
  const queue: number[] = [...states[0]!.next.values()];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const [char, to] of states[at]!.next) {
      let fail = states[at]!.fail;
      while (fail !== 0 && !states[fail]!.next.has(char)) fail = states[fail]!.fail;
      const target = states[fail]!.next.get(char);
      states[to]!.fail = target !== undefined && target !== to ? target : 0;
      if (states[states[to]!.fail]!.forbidden) states[to]!.forbidden = true;
      queue.push(to);
    }
  }
  return states;
}

function step(states: State[], from: number, char: string): number {
  let at = from;
  for (;;) {
    const to = states[at]!.next.get(char);
    if (to !== undefined) return to;
    if (at === 0) return 0;
    at = states[at]!.fail;
  }
}

/** Adds rules for text not containing any of `strings`; returns the starting rule's name. */
export function addTextWithout(builder: GbnfBuilder, strings: readonly string[], hint: string): string {
  const states = automaton(strings.filter((text) => text.length > 0));
  const names = states.map((state, i) => (state.forbidden ? "" : builder.reserve(i === 0 ? hint : `${hint}-s`)));
  const alphabet = new Set<string>();
  for (const state of states) for (const char of state.next.keys()) alphabet.add(char);
  states.forEach((state, i) => {
    if (state.forbidden) return;
    const alternatives: string[] = [];
    const special = new Set<string>();
    for (const char of alphabet) {
      const to = step(states, i, char);
      if (to === 0) continue;
      special.add(char);
      if (!states[to]!.forbidden) alternatives.push(`${gbnfLiteral(char)} ${names[to]}`);
    }
    const others = special.size > 0 ? `[^${[...special].map(gbnfClassChar).join("")}]` : ".";
    // Any other character goes back to the start (state 0 loops on them); the text may end in any state.
    const choices = [...(i === 0 ? [] : [`${others} ${names[0]}`]), ...alternatives];
    const tail = choices.length > 0 ? `(${choices.join(" | ")})?` : "";
    builder.define(names[i]!, i === 0 ? `${others}* ${tail}`.trim() : tail);
  });
  return names[0]!;
}
