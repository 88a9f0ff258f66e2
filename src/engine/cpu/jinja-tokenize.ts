// A chat template's source read into @huggingface/jinja's tokens, the same tokens its own
// `tokenize` makes (with the lstrip_blocks and trim_blocks its Template uses), in a fraction of
// the time; the library's parser then builds the tree as before.
//
// Why: the library's lexer walks the source a character at a time, testing each against a
// regular expression and building every text by `+=` one character at a time, and tries each of
// its 29 operators by slicing the source at every token. In Chromium that is 10–40 ms for Kimi K3's
// 15 KB template even after the derivation worker's warm-up (Node: 2–20 ms), more than half of the
// page's 50 ms goal for a template's derivation (bench:derive-protocol). This reads runs with
// indexOf and sticky regular expressions and slices each token once.
//
// The same tokens, errors included, is what this module must give: `jinja-tokenize.test.ts`
// compares it with the library's lexer on every template the project holds and on generated
// sources built from the lexer's edge cases (escapes, comments, whitespace control, signs,
// braces inside expressions, end of input inside a token), and a library update that changes the
// lexer fails there.
import { parse, type Template } from "@huggingface/jinja";

/** A token as the library's parser reads it (its Token class holds just these two fields). */
export interface JinjaToken {
  value: string;
  type: string;
}

/** A parsed template, as the bounded renderer (jinja-budget.ts) takes it. */
export type ParsedTemplate = Pick<Template, "parsed">;

/** The source parsed as @huggingface/jinja's `new Template(source)` parses it; throws its SyntaxError for a source it refuses. */
export function parseTemplate(source: string): ParsedTemplate {
  return { parsed: parse(tokenizeTemplate(source) as Parameters<typeof parse>[0]) };
}

/** The operators and punctuation, in the order the library tries them (`**` before `*`, `//` before `/`). */
const OPERATORS: ReadonlyArray<readonly [string, string]> = [
  ["{%", "OpenStatement"],
  ["%}", "CloseStatement"],
  ["{{", "OpenExpression"],
  ["}}", "CloseExpression"],
  ["(", "OpenParen"],
  [")", "CloseParen"],
  ["{", "OpenCurlyBracket"],
  ["}", "CloseCurlyBracket"],
  ["[", "OpenSquareBracket"],
  ["]", "CloseSquareBracket"],
  [",", "Comma"],
  [".", "Dot"],
  [":", "Colon"],
  ["|", "Pipe"],
  ["<=", "ComparisonBinaryOperator"],
  [">=", "ComparisonBinaryOperator"],
  ["==", "ComparisonBinaryOperator"],
  ["!=", "ComparisonBinaryOperator"],
  ["<", "ComparisonBinaryOperator"],
  [">", "ComparisonBinaryOperator"],
  ["+", "AdditiveBinaryOperator"],
  ["-", "AdditiveBinaryOperator"],
  ["~", "AdditiveBinaryOperator"],
  ["**", "ExponentiationBinaryOperator"],
  ["*", "MultiplicativeBinaryOperator"],
  ["//", "MultiplicativeBinaryOperator"],
  ["/", "MultiplicativeBinaryOperator"],
  ["%", "MultiplicativeBinaryOperator"],
  ["=", "Equals"],
];

/** The operators that may start at each first character, in the library's order. */
const OPERATORS_BY_FIRST = new Map<string, Array<readonly [string, string]>>();
for (const entry of OPERATORS) {
  const first = entry[0][0]!;
  OPERATORS_BY_FIRST.set(first, [...(OPERATORS_BY_FIRST.get(first) ?? []), entry]);
}

const ESCAPES = new Map([
  ["n", "\n"],
  ["t", "\t"],
  ["r", "\r"],
  ["b", "\b"],
  ["f", "\f"],
  ["v", "\v"],
  ["'", "'"],
  ['"', '"'],
  ["\\", "\\"],
]);

/** After these a `-` or `+` is a binary operator; after anything else it signs a number or is unary. */
const OPERAND_ENDS = new Set(["Identifier", "NumericLiteral", "StringLiteral", "CloseParen", "CloseSquareBracket"]);

const WHITESPACE_RUN = /\s*/y;
const WORD_RUN = /\w*/y;
const DIGIT_RUN = /[0-9]*/y;
/** Where text ends: a statement, an expression or a comment opens. */
const TAG_OPENING = /\{[%{#]/g;

/** Where the run `run` (a sticky pattern that may match nothing) starting at `from` in `text` ends. */
function runEnd(run: RegExp, text: string, from: number): number {
  run.lastIndex = from;
  run.test(text);
  return run.lastIndex;
}

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/**
 * The library's preprocessing with its Template's options: one final newline dropped; spaces and
 * tabs before a block tag at a line's start dropped (lstrip_blocks); the newline after a block tag
 * dropped (trim_blocks); `{% generation %}` / `{% endgeneration %}` markers removed.
 */
function preprocess(template: string): string {
  const body = template.endsWith("\n") ? template.slice(0, -1) : template;
  return withoutGenerationTags(body.replace(/^[ \t]*({[#%-])/gm, "$1").replace(/([#%-]})\n/g, "$1"));
}

const GENERATION_TAG = /{%(-?)\s*(?:end)?generation\s*(-?)%}/g;
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * `{% generation %}` and `{% endgeneration %}` (transformers' marks of the assistant's part)
 * removed, each with the whitespace before and after it unless its `-` says to drop that, as the
 * library does it: a match takes the whitespace run before the tag back to where the previous
 * match ended, and the whole run after it. The library does this with one regular expression that
 * begins with `(\s*)`, which tries every position of a whitespace run against the rest of the run:
 * a template of 40,000 spaces took 1.9 s to lex that way, a million would take minutes. Here each
 * character is looked at a bounded number of times.
 */
function withoutGenerationTags(text: string): string {
  let out = "";
  /** Text before this index is in `out` or was removed. */
  let done = 0;
  GENERATION_TAG.lastIndex = 0;
  for (let tag = GENERATION_TAG.exec(text); tag; tag = GENERATION_TAG.exec(text)) {
    let before = tag.index;
    while (before > done && isSpace(text[before - 1])) before -= 1;
    const tagEnd = tag.index + tag[0].length;
    const after = runEnd(WHITESPACE_RUN, text, tagEnd);
    const [, dropBefore, dropAfter] = tag;
    out += text.slice(done, before) + (dropBefore ? "" : text.slice(before, tag.index)) + (dropAfter ? "" : text.slice(tagEnd, after));
    done = after;
    GENERATION_TAG.lastIndex = after;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** The library's tokens of `source`; throws a SyntaxError where it throws one, with its message. */
export function tokenizeTemplate(source: string): JinjaToken[] {
  const src = preprocess(source);
  const length = src.length;
  const tokens: JinjaToken[] = [];
  let at = 0;
  let curlyDepth = 0;

  const lastType = (): string | undefined => tokens[tokens.length - 1]?.type;
  const endOfInput = () => new SyntaxError("Unexpected end of input");

  /** A run matched by `run` from `at`; as the library's lexer, a run that reaches the end of the source is an error. */
  const consumeRun = (run: RegExp): string => {
    const end = runEnd(run, src, at);
    if (end > at && end >= length) throw endOfInput();
    const text = src.slice(at, end);
    at = end;
    return text;
  };

  /** A string literal's body up to its closing `quote` (not consumed), escapes read. */
  const consumeString = (quote: string): string => {
    let text = "";
    let runStart = at;
    for (;;) {
      const char = src[at];
      if (char === quote) break;
      if (char === "\\") {
        text += src.slice(runStart, at);
        at += 1;
        if (at >= length) throw endOfInput();
        const escaped = src[at++]!;
        if (escaped === "x" || escaped === "u") {
          const digits = escaped === "x" ? 2 : 4;
          const hex = src.slice(at, at + digits);
          if (hex.length !== digits || /[^0-9a-f]/i.test(hex)) throw new SyntaxError(`Invalid hexadecimal escape sequence: \\${escaped}${hex}`);
          text += String.fromCharCode(parseInt(hex, 16));
          at += digits;
        } else {
          const unescaped = ESCAPES.get(escaped);
          if (unescaped === undefined) throw new SyntaxError(`Unexpected escaped character: ${escaped}`);
          text += unescaped;
        }
        runStart = at;
        // Past the end after an escape, the library reads one more (absent) character and then stops: the same error.
        if (at >= length) throw endOfInput();
        continue;
      }
      at += 1;
      if (at >= length) throw endOfInput();
    }
    return text + src.slice(runStart, at);
  };

  const stripTrailingWhitespace = () => {
    const last = tokens[tokens.length - 1];
    if (last?.type !== "Text") return;
    last.value = last.value.trimEnd();
    if (last.value === "") tokens.pop();
  };

  const skipLeadingWhitespace = () => {
    at = runEnd(WHITESPACE_RUN, src, at);
  };

  /** A number's digits after `at` (a sign already read), with a fraction when `.` and a digit follow and `fractionAllowed`. */
  const consumeNumber = (fractionAllowed: boolean): string => {
    let digits = consumeRun(DIGIT_RUN);
    if (digits.length > 0 && fractionAllowed && src[at] === "." && isDigit(src[at + 1])) {
      at += 1;
      digits = `${digits}.${consumeRun(DIGIT_RUN)}`;
    }
    return digits;
  };

  main: while (at < length) {
    const previous = lastType();
    if (previous === undefined || previous === "CloseStatement" || previous === "CloseExpression" || previous === "Comment") {
      TAG_OPENING.lastIndex = at;
      const opening = TAG_OPENING.exec(src);
      const end = opening ? opening.index : length;
      if (end > at) {
        tokens.push({ value: src.slice(at, end), type: "Text" });
        at = end;
        continue;
      }
    }
    if (src[at] === "{" && src[at + 1] === "#") {
      at += 2;
      const stripBefore = src[at] === "-";
      if (stripBefore) at += 1;
      const close = src.indexOf("#}", at);
      if (close < 0) throw new SyntaxError("Missing end of comment tag");
      let comment = src.slice(at, close);
      const stripAfter = comment.endsWith("-");
      if (stripAfter) comment = comment.slice(0, -1);
      if (stripBefore) stripTrailingWhitespace();
      tokens.push({ value: comment, type: "Comment" });
      at = close + 2;
      if (stripAfter) skipLeadingWhitespace();
      continue;
    }
    if (src.startsWith("{%-", at)) {
      stripTrailingWhitespace();
      tokens.push({ value: "{%", type: "OpenStatement" });
      at += 3;
      continue;
    }
    if (src.startsWith("{{-", at)) {
      stripTrailingWhitespace();
      tokens.push({ value: "{{", type: "OpenExpression" });
      curlyDepth = 0;
      at += 3;
      continue;
    }
    consumeRun(WHITESPACE_RUN);
    if (src.startsWith("-%}", at)) {
      tokens.push({ value: "%}", type: "CloseStatement" });
      at += 3;
      skipLeadingWhitespace();
      continue;
    }
    if (src.startsWith("-}}", at)) {
      tokens.push({ value: "}}", type: "CloseExpression" });
      at += 3;
      skipLeadingWhitespace();
      continue;
    }
    const char = src[at]!;
    if (char === "-" || char === "+") {
      const before = lastType();
      if (before === "Text" || before === undefined) throw new SyntaxError(`Unexpected character: ${char}`);
      if (!OPERAND_ENDS.has(before)) {
        at += 1;
        const number = consumeNumber(true);
        tokens.push({ value: `${char}${number}`, type: number.length > 0 ? "NumericLiteral" : "UnaryOperator" });
        continue;
      }
    }
    for (const [operator, type] of OPERATORS_BY_FIRST.get(char) ?? []) {
      if (operator === "}}" && curlyDepth > 0) continue;
      if (!src.startsWith(operator, at)) continue;
      tokens.push({ value: operator, type });
      if (type === "OpenExpression") curlyDepth = 0;
      else if (type === "OpenCurlyBracket") curlyDepth += 1;
      else if (type === "CloseCurlyBracket") curlyDepth -= 1;
      at += operator.length;
      continue main;
    }
    if (char === "'" || char === '"') {
      at += 1;
      const text = consumeString(char);
      tokens.push({ value: text, type: "StringLiteral" });
      at += 1;
      continue;
    }
    if (isDigit(char)) {
      const number = consumeNumber(lastType() !== "Dot");
      tokens.push({ value: number, type: "NumericLiteral" });
      continue;
    }
    if (/\w/.test(char)) {
      tokens.push({ value: consumeRun(WORD_RUN), type: "Identifier" });
      continue;
    }
    throw new SyntaxError(`Unexpected character: ${char}`);
  }
  return tokens;
}
