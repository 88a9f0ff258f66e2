// Reads the model outputs and expected messages out of llama.cpp's tests/test-chat.cpp (the
// `peg_tester("models/templates/X.jinja")` blocks: `tst.test(OUTPUT)…expect(…).run()`) and
// writes them as data, one case a line: template, output, tools, thinking and reasoning settings,
// and the message llama.cpp's test expects its parser to read (content, reasoning, calls). Only
// cases written with literal strings and the test file's named messages and tools are taken; the
// others (prompt tests with messages(), partial outputs) are counted as skipped.
//   npx tsx scripts/chat-reference/extract-test-chat-cases.ts PATH/tests/test-chat.cpp > cases.jsonl
import { readFileSync } from "node:fs";

type Token = { kind: "string"; value: string } | { kind: "word"; value: string } | { kind: "punct"; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const c = source[at]!;
    if (/\s/.test(c)) at++;
    else if (source.startsWith("//", at)) at = source.indexOf("\n", at) < 0 ? source.length : source.indexOf("\n", at);
    else if (source.startsWith("/*", at)) at = source.indexOf("*/", at) + 2;
    else if (c === "R" && source[at + 1] === '"') {
      const open = source.indexOf("(", at);
      const delimiter = source.slice(at + 2, open);
      const close = source.indexOf(`)${delimiter}"`, open);
      tokens.push({ kind: "string", value: source.slice(open + 1, close) });
      at = close + delimiter.length + 2;
    } else if (c === '"') {
      let value = "";
      at++;
      while (source[at] !== '"') {
        if (source[at] === "\\") {
          const e = source[at + 1]!;
          const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0" };
          if (e === "u" || e === "x") {
            const width = e === "u" ? 4 : 2;
            value += String.fromCodePoint(parseInt(source.slice(at + 2, at + 2 + width), 16));
            at += 2 + width;
          } else {
            value += simple[e] ?? e;
            at += 2;
          }
        } else value += source[at++];
      }
      at++;
      tokens.push({ kind: "string", value });
    } else if (/[A-Za-z_0-9]/.test(c)) {
      const word = /^[A-Za-z_0-9:]+/.exec(source.slice(at))![0];
      tokens.push({ kind: "word", value: word });
      at += word.length;
    } else tokens.push({ kind: "punct", value: source[at++]! });
  }
  return tokens;
}

interface Message {
  content: string;
  reasoning: string;
  calls: { name: string; arguments: string }[];
}

class Reader {
  at = 0;
  constructor(
    readonly tokens: Token[],
    private readonly messages: Map<string, Message>,
  ) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }
  expect(value: string): void {
    const t = this.tokens[this.at++];
    if (t?.value !== value) throw new Error(`expected ${value}, got ${t?.value}`);
  }
  /** Adjacent string literals, joined. */
  string(): string {
    let value = "";
    if (this.peek()?.kind !== "string") throw new Error(`expected a string, got ${this.peek()?.value}`);
    while (this.peek()?.kind === "string") value += this.tokens[this.at++]!.value;
    return value;
  }
  word(): string {
    const t = this.tokens[this.at++];
    if (t?.kind !== "word") throw new Error(`expected a word, got ${t?.value}`);
    return t.value;
  }
  /** Skips to the end of a group whose opening bracket was read. */
  closeGroup(): void {
    let depth = 1;
    while (depth > 0) {
      const t = this.tokens[this.at++]!;
      if (t.kind === "punct" && "({[".includes(t.value)) depth++;
      if (t.kind === "punct" && ")}]".includes(t.value)) depth--;
    }
  }
  /** Skips a balanced group from an opening bracket. */
  skipGroup(): void {
    let depth = 0;
    do {
      const t = this.tokens[this.at++]!;
      if (t.kind === "punct" && "({[".includes(t.value)) depth++;
      if (t.kind === "punct" && ")}]".includes(t.value)) depth--;
    } while (depth > 0);
  }
  /** A message: a named one, or one of the test file's message builders with literal arguments. */
  message(): Message {
    const t = this.tokens[this.at++]!;
    if (t.kind !== "word") throw new Error("a message that is not named");
    if (this.peek()?.value !== "(") {
      const named = this.messages.get(t.value);
      if (!named) throw new Error(`unknown message ${t.value}`);
      return named;
    }
    this.expect("(");
    const args: (string | { name: string; arguments: string }[])[] = [];
    while (this.peek()?.value !== ")") {
      if (this.peek()?.value === "{") args.push(this.callList());
      else args.push(this.string());
      if (this.peek()?.value === ",") this.at++;
    }
    this.expect(")");
    const s = (i: number) => (typeof args[i] === "string" ? (args[i] as string) : "");
    const call = (name: string, a: string) => (name !== "" ? [{ name, arguments: a }] : []);
    switch (t.value) {
      case "simple_assist_msg":
        return { content: s(0), reasoning: s(1), calls: call(s(2), s(3)) };
      case "message_with_tool_calls":
        return { content: "", reasoning: "", calls: call(s(0), s(1)) };
      case "message_with_tool_calls_and_reasoning":
        return { content: "", reasoning: s(2), calls: call(s(0), s(1)) };
      case "message_with_content_and_tool_call":
        return { content: s(0), reasoning: "", calls: call(s(1), s(2)) };
      case "message_with_reasoning_and_tool_call":
        return { content: "", reasoning: s(0), calls: call(s(1), s(2)) };
      case "message_with_reasoning_content_and_multiple_tool_calls":
        return { content: s(1), reasoning: s(0), calls: args[2] as { name: string; arguments: string }[] };
      default:
        throw new Error(`unknown message builder ${t.value}`);
    }
  }
  /** `{ {"name", "arguments"[, id]}, … }` */
  callList(): { name: string; arguments: string }[] {
    this.expect("{");
    const calls: { name: string; arguments: string }[] = [];
    while (this.peek()?.value === "{") {
      this.expect("{");
      const name = this.string();
      this.expect(",");
      const args = this.string();
      while (this.peek()?.value !== "}") {
        if (this.peek()?.value === "{") this.skipGroup();
        else this.at++;
      }
      this.expect("}");
      calls.push({ name, arguments: args });
      if (this.peek()?.value === ",") this.at++;
    }
    this.expect("}");
    return calls;
  }
}

const path = process.argv[2];
if (!path) throw new Error("usage: extract-test-chat-cases.ts PATH/tests/test-chat.cpp");
const source = readFileSync(path, "utf8");
const tokens = tokenize(source);

// The test file's tools (`static common_chat_tool NAME{ "name", "description", R"({schema})" }`) and named messages.
const tools = new Map<string, { name: string; description: string; parameters: unknown }>();
const messages = new Map<string, Message>();
for (let i = 0; i < tokens.length; i++) {
  const t = tokens[i]!;
  if (t.value === "common_chat_tool" && tokens[i + 1]?.kind === "word" && tokens[i + 2]?.value === "{") {
    const r = new Reader(tokens, messages);
    r.at = i + 3;
    try {
      const name = r.string();
      r.expect(",");
      const description = r.string();
      r.expect(",");
      const schema = r.peek()?.kind === "string" ? r.string() : "{}";
      tools.set(tokens[i + 1]!.value, { name, description, parameters: JSON.parse(schema) });
    } catch {
      // not a literal tool
    }
  }
  if (t.value === "common_chat_msg" && tokens[i + 1]?.kind === "word" && tokens[i + 2]?.value === "=") {
    const r = new Reader(tokens, messages);
    r.at = i + 3;
    try {
      messages.set(tokens[i + 1]!.value, r.message());
    } catch {
      // not a literal message
    }
  }
}

let skipped = 0;
let written = 0;
let template: string | undefined;
let testerName: string | undefined;
for (let i = 0; i < tokens.length; i++) {
  const t = tokens[i]!;
  if (t.value === "peg_tester" && tokens[i + 1]?.value === "(" && tokens[i + 2]?.kind === "string") {
    template = tokens[i + 2]!.value.replace(/^models\/templates\//, "");
    testerName = tokens[i - 1]?.value === "=" ? tokens[i - 2]?.value : undefined;
    continue;
  }
  if (!template || t.value !== testerName || tokens[i + 1]?.value !== "." || tokens[i + 2]?.value !== "test") continue;
  const r = new Reader(tokens, messages);
  r.at = i + 3;
  try {
    r.expect("(");
    const output = r.string();
    r.expect(")");
    const setting: Record<string, unknown> = {};
    let expected: Message = { content: "", reasoning: "", calls: [] };
    let usable = true;
    while (r.peek()?.value === ".") {
      r.at++;
      const method = r.word();
      if (method === "run") {
        r.skipGroup();
        break;
      }
      if (method === "expect") {
        r.expect("(");
        expected = r.message();
        r.expect(")");
      } else if (method === "expect_content" || method === "expect_reasoning") {
        r.expect("(");
        expected = { ...expected, [method === "expect_content" ? "content" : "reasoning"]: r.string() };
        r.expect(")");
      } else if (method === "expect_tool_calls") {
        r.expect("(");
        expected = { ...expected, calls: r.callList() };
        r.expect(")");
      } else if (method === "tools") {
        r.expect("(");
        r.expect("{");
        const names: string[] = [];
        while (r.peek()?.value !== "}") {
          const word = r.peek()!.value;
          r.at++;
          if (word !== ",") {
            const tool = tools.get(word);
            if (!tool) throw new Error(`unknown tool ${word}`);
            names.push(word);
          }
        }
        r.expect("}");
        r.expect(")");
        setting.tools = names.map((n) => tools.get(n));
      } else if (method === "enable_thinking" || method === "is_partial" || method === "parallel_tool_calls" || method === "reasoning_format") {
        r.expect("(");
        const value = r.peek()!.value;
        r.closeGroup();
        setting[method === "reasoning_format" ? "reasoningFormat" : method === "enable_thinking" ? "thinking" : method === "is_partial" ? "partial" : "parallel"] =
          value === "true" ? true : value === "false" ? false : value.replace(/^COMMON_REASONING_FORMAT_/, "").toLowerCase();
      } else if (method === "expect_reconstruction") {
        r.skipGroup();
      } else {
        // messages(), json_schema(), tool_choice(), … : a prompt test, or one this data does not hold.
        usable = false;
        r.skipGroup();
      }
    }
    if (!usable || setting.partial === true) {
      skipped++;
      continue;
    }
    console.log(JSON.stringify({ template, output, ...setting, expected }));
    written++;
  } catch (error) {
    skipped++;
    console.error(`skipped a case of ${template}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.error(`${written} cases written, ${skipped} skipped`);
