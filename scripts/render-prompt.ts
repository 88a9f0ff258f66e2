// `npm run --silent render-prompt -- FILE.json`: prints the exact prompt the lab would send for
// the next step (generation prompt included), and nothing else: no newline after it.
// FILE.json: {"model" (a WebLLM id from the list, or a server model name such as
// "meta-llama/Llama-3.1-8B-Instruct"), "protocol"? (default: the family's trained protocol),
// "thinking"? (default: the template's own), "tools"? (OpenAI-style), "messages" (ChatMessage
// objects), "systemPrompt"? (absent: no system message), "constrained"?, "toolChoice"?}. With
// "constrained": true the step's structural tag (what "Constrain tool calls" sends) follows the
// prompt after a newline and a line `--- structural_tag ---`, as JSON. Errors go to stderr with a
// non-zero exit.
//
// `npm run --silent render-prompt -- --jsonl FILE.jsonl`: one request per line; prints one line
// per request: the output as a JSON string, or {"error": "…"} for a line that fails.
import { readFileSync } from "node:fs";
import { renderPromptRequest } from "../src/engine/templates/prompt-request.ts";

function fail(message: string, code: number): never {
  process.stderr.write(`render-prompt: ${message}\n`);
  process.exit(code);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    fail(`cannot read ${path}: ${messageOf(error)}`, 2);
  }
}

/** One line of a JSONL file: its output as a JSON string, or {"error": …}. */
function renderLine(line: string, number: number): string {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return JSON.stringify({ error: `line ${number} is not JSON: ${messageOf(error)}` });
  }
  try {
    return JSON.stringify(renderPromptRequest(input));
  } catch (error) {
    return JSON.stringify({ error: messageOf(error) });
  }
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === "--jsonl") {
    if (args.length !== 2) fail("usage: npm run --silent render-prompt -- --jsonl FILE.jsonl", 2);
    const lines = read(args[1]!).split("\n");
    // A final newline ends the last line; it starts no request of its own.
    if (lines.at(-1) === "") lines.pop();
    process.stdout.write(lines.map((line, i) => `${renderLine(line.replace(/\r$/, ""), i + 1)}\n`).join(""));
    return;
  }
  const path = args[0];
  if (!path || args.length > 1) fail("usage: npm run --silent render-prompt -- FILE.json (or --jsonl FILE.jsonl)", 2);
  const text = read(path);
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`${path} is not JSON: ${messageOf(error)}`, 1);
  }
  let output: string;
  try {
    output = renderPromptRequest(input);
  } catch (error) {
    fail(messageOf(error), 1);
  }
  process.stdout.write(output);
}

main();
