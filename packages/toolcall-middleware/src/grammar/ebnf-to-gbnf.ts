// A protocol's argument grammar (XGrammar's EBNF, the `grammar` format of a structural tag) as
// GBNF rules: the two notations share literals, classes and operators; rule names differ
// (llama.cpp takes letters, digits and dashes, no underscores), and each embedded grammar gets
// names of its own so two tools' grammars cannot clash.
import { GbnfBuilder, GrammarConversionError, gbnfName } from "./gbnf-builder.ts";

interface Rule {
  name: string;
  body: string;
}

/** Splits the grammar into rules, renaming every rule reference with `rename`. */
function parseRules(ebnf: string, rename: (name: string) => string): Rule[] {
  const rules: Rule[] = [];
  let current: Rule | undefined;
  let out = "";
  let at = 0;
  const flush = () => {
    if (current) current.body = `${current.body}${out}`.trim();
    out = "";
  };
  while (at < ebnf.length) {
    const char = ebnf[at]!;
    if (char === '"' || char === "[") {
      const close = char === '"' ? '"' : "]";
      let end = at + 1;
      while (end < ebnf.length && ebnf[end] !== close) end += ebnf[end] === "\\" ? 2 : 1;
      if (end >= ebnf.length) throw new GrammarConversionError(`The grammar has an unclosed ${char === '"' ? "string" : "character class"}: ${ebnf.slice(at, at + 40)}`);
      out += ebnf.slice(at, end + 1);
      at = end + 1;
      continue;
    }
    if (char === "#") {
      while (at < ebnf.length && ebnf[at] !== "\n") at++;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(ebnf.slice(at, at + 200));
    if (word) {
      const after = ebnf.slice(at + word[0].length);
      const definition = /^\s*::=/.exec(after);
      if (definition) {
        flush();
        current = { name: rename(word[0]), body: "" };
        rules.push(current);
        at += word[0].length + definition[0].length;
        continue;
      }
      out += rename(word[0]);
      at += word[0].length;
      continue;
    }
    // Line breaks inside a rule become spaces: a GBNF rule is one line.
    out += char === "\n" || char === "\r" ? " " : char;
    at++;
  }
  flush();
  if (!current) throw new GrammarConversionError("The grammar has no rules.");
  return rules;
}

/** Adds an EBNF grammar's rules to the builder under fresh names; returns its root rule's name. */
export function addEbnf(builder: GbnfBuilder, ebnf: string, hint: string): string {
  const names = new Map<string, string>();
  const rename = (name: string) => {
    let renamed = names.get(name);
    if (!renamed) {
      renamed = builder.reserve(`${hint}-${gbnfName(name)}`);
      names.set(name, renamed);
    }
    return renamed;
  };
  const rules = parseRules(ebnf, rename);
  const defined = new Set(rules.map((rule) => rule.name));
  for (const rule of rules) builder.define(rule.name, rule.body === "" ? '""' : rule.body);
  for (const [original, renamed] of names) {
    if (!defined.has(renamed)) throw new GrammarConversionError(`The grammar uses the rule "${original}" but does not define it.`);
  }
  const root = names.get("root");
  if (!root) throw new GrammarConversionError('The grammar has no "root" rule.');
  return root;
}
