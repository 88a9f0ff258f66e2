// Collects the rules of a llama.cpp grammar (GBNF) with names that cannot clash: llama.cpp's
// rule names are letters, digits and dashes only, and every rule is one line.

export class GrammarConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GrammarConversionError";
  }
}

/** A GBNF string literal for a text: quotes, backslashes and control characters escaped. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** A character inside a GBNF character class ([...]), escaped. */
export function gbnfClassChar(char: string): string {
  const code = char.codePointAt(0)!;
  if (char === "]" || char === "[" || char === "\\" || char === "^" || char === "-") return `\\${char}`;
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === "\t") return "\\t";
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return char;
}

/** A name llama.cpp accepts: letters, digits and dashes. */
export function gbnfName(hint: string): string {
  const cleaned = hint.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase();
  return cleaned === "" ? "r" : cleaned;
}

export class GbnfBuilder {
  private readonly rules = new Map<string, string>();

  /** Adds a rule under a fresh name made from `hint`; returns the name. */
  add(hint: string, body: string): string {
    const base = gbnfName(hint);
    let name = base;
    for (let n = 2; this.rules.has(name) || name === "root"; n++) name = `${base}-${n}`;
    this.rules.set(name, body);
    return name;
  }

  /** Reserves a fresh name to define later (recursive rules). */
  reserve(hint: string): string {
    return this.add(hint, "");
  }

  define(name: string, body: string): void {
    this.rules.set(name, body);
  }

  /** Adds a shared rule once under exactly this name. */
  shared(name: string, body: () => string): string {
    if (!this.rules.has(name)) {
      this.rules.set(name, "");
      this.rules.set(name, body());
    }
    return name;
  }

  has(name: string): boolean {
    return this.rules.has(name);
  }

  /** The grammar text with `root` first. */
  toString(root: string): string {
    const lines = [`root ::= ${root}`];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return `${lines.join("\n")}\n`;
  }
}
