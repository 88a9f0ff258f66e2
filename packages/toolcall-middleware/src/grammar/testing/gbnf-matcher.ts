// A small GBNF recognizer for tests: whether a grammar accepts a whole text. It reads the subset
// of llama.cpp's notation the lab writes (literals, classes, ., groups, |, ?, *, +, {m,n}) and
// matches by sets of end positions, so ambiguity is fine; it is slow and only for short texts.

type Node =
  | { kind: "literal"; chars: string[] }
  | { kind: "class"; negated: boolean; ranges: Array<[number, number]> }
  | { kind: "any" }
  | { kind: "ref"; name: string }
  | { kind: "seq"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number };

function readEscape(text: string, at: number): [string, number] {
  const next = text[at + 1]!;
  const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "[": "[", "]": "]", "-": "-", "^": "^" };
  if (next in simple) return [simple[next]!, at + 2];
  const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
  if (width === 0) throw new Error(`unknown escape \\${next}`);
  return [String.fromCodePoint(parseInt(text.slice(at + 2, at + 2 + width), 16)), at + 2 + width];
}

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  alternatives(): Node {
    const options = [this.sequence()];
    this.space();
    while (this.text[this.at] === "|") {
      this.at++;
      options.push(this.sequence());
      this.space();
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (;;) {
      this.space();
      const char = this.text[this.at];
      if (char === undefined || char === "|" || char === ")") break;
      items.push(this.postfix(this.atom()));
    }
    return { kind: "seq", items };
  }

  private atom(): Node {
    const char = this.text[this.at]!;
    if (char === '"') {
      const chars: string[] = [];
      this.at++;
      while (this.text[this.at] !== '"') {
        if (this.at >= this.text.length) throw new Error("unclosed literal");
        if (this.text[this.at] === "\\") {
          const [value, next] = readEscape(this.text, this.at);
          chars.push(value);
          this.at = next;
        } else {
          const code = this.text.codePointAt(this.at)!;
          chars.push(String.fromCodePoint(code));
          this.at += code > 0xffff ? 2 : 1;
        }
      }
      this.at++;
      return { kind: "literal", chars };
    }
    if (char === "[") {
      this.at++;
      const negated = this.text[this.at] === "^";
      if (negated) this.at++;
      const ranges: Array<[number, number]> = [];
      const one = (): number => {
        if (this.text[this.at] === "\\") {
          const [value, next] = readEscape(this.text, this.at);
          this.at = next;
          return value.codePointAt(0)!;
        }
        const code = this.text.codePointAt(this.at)!;
        this.at += code > 0xffff ? 2 : 1;
        return code;
      };
      while (this.text[this.at] !== "]") {
        const from = one();
        if (this.text[this.at] === "-" && this.text[this.at + 1] !== "]") {
          this.at++;
          ranges.push([from, one()]);
        } else ranges.push([from, from]);
      }
      this.at++;
      return { kind: "class", negated, ranges };
    }
    if (char === ".") {
      this.at++;
      return { kind: "any" };
    }
    if (char === "(") {
      this.at++;
      const inner = this.alternatives();
      this.space();
      if (this.text[this.at] !== ")") throw new Error(`expected ) at ${this.at}`);
      this.at++;
      return inner;
    }
    const name = /^[A-Za-z0-9-]+/.exec(this.text.slice(this.at));
    if (!name) throw new Error(`unexpected "${char}" at ${this.at} in ${this.text.slice(this.at, this.at + 30)}`);
    this.at += name[0].length;
    return { kind: "ref", name: name[0] };
  }

  private postfix(node: Node): Node {
    const char = this.text[this.at];
    if (char === "?") return (this.at++, { kind: "repeat", node, min: 0, max: 1 });
    if (char === "*") return (this.at++, { kind: "repeat", node, min: 0, max: Infinity });
    if (char === "+") return (this.at++, { kind: "repeat", node, min: 1, max: Infinity });
    const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.at));
    if (bounds) {
      this.at += bounds[0].length;
      const min = Number(bounds[1]);
      const max = bounds[2] === undefined ? min : bounds[3] === "" ? Infinity : Number(bounds[3]);
      return { kind: "repeat", node, min, max };
    }
    return node;
  }
}

export class GbnfMatcher {
  readonly rules = new Map<string, Node>();

  constructor(grammar: string) {
    for (const line of grammar.split("\n")) {
      if (!line.trim()) continue;
      const match = /^([A-Za-z0-9-]+) ::= (.*)$/.exec(line);
      if (!match) throw new Error(`not a rule line: ${line}`);
      const parser = new Parser(match[2]!);
      const node = parser.alternatives();
      if (parser.at < match[2]!.length) throw new Error(`trailing text in ${line}`);
      this.rules.set(match[1]!, node);
    }
    for (const [name, node] of this.rules) this.checkRefs(node, name);
  }

  private checkRefs(node: Node, rule: string): void {
    if (node.kind === "ref" && !this.rules.has(node.name)) throw new Error(`rule ${rule} uses undefined ${node.name}`);
    if (node.kind === "seq") node.items.forEach((item) => this.checkRefs(item, rule));
    if (node.kind === "alt") node.options.forEach((item) => this.checkRefs(item, rule));
    if (node.kind === "repeat") this.checkRefs(node.node, rule);
  }

  /** Whether the grammar's root accepts the whole text. */
  accepts(text: string): boolean {
    const chars = Array.from(text);
    const memo = new Map<string, Set<number>>();
    const ends = (node: Node, from: number): Set<number> => {
      switch (node.kind) {
        case "literal": {
          for (let i = 0; i < node.chars.length; i++) if (chars[from + i] !== node.chars[i]) return new Set();
          return new Set([from + node.chars.length]);
        }
        case "class": {
          const char = chars[from];
          if (char === undefined) return new Set();
          const code = char.codePointAt(0)!;
          const inside = node.ranges.some(([low, high]) => code >= low && code <= high);
          return inside !== node.negated ? new Set([from + 1]) : new Set();
        }
        case "any":
          return from < chars.length ? new Set([from + 1]) : new Set();
        case "ref": {
          const key = `${node.name}@${from}`;
          const known = memo.get(key);
          if (known) return known;
          memo.set(key, new Set()); // left recursion finds nothing
          const found = ends(this.rules.get(node.name)!, from);
          memo.set(key, found);
          return found;
        }
        case "seq": {
          let positions = new Set([from]);
          for (const item of node.items) {
            const next = new Set<number>();
            for (const at of positions) for (const end of ends(item, at)) next.add(end);
            positions = next;
            if (positions.size === 0) break;
          }
          return positions;
        }
        case "alt": {
          const all = new Set<number>();
          for (const option of node.options) for (const end of ends(option, from)) all.add(end);
          return all;
        }
        case "repeat": {
          const all = new Set<number>(node.min === 0 ? [from] : []);
          let frontier = new Set([from]);
          for (let count = 1; count <= node.max && frontier.size > 0; count++) {
            const next = new Set<number>();
            for (const at of frontier) for (const end of ends(node.node, at)) if (end !== at) next.add(end);
            frontier = next;
            if (count >= node.min) for (const at of frontier) all.add(at);
            if (count > chars.length + 1) break;
          }
          return all;
        }
      }
    };
    return ends({ kind: "ref", name: "root" }, 0).has(chars.length);
  }
}
