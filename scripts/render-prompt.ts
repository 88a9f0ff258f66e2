// `npm run --silent render-prompt -- FILE.json`: prints the exact prompt the WebLLM engine would
// send for the next step (generation prompt included), and nothing else: no newline after it.
// FILE.json: {"model", "protocol", "thinking"?, "tools"? (OpenAI-style), "messages" (ChatMessage
// objects), "systemPrompt"?, "constrained"?, "toolChoice"?}. With "constrained": true the step's
// structural tag (what "Constrain tool calls" sends) follows the prompt after a newline and a line
// `--- structural_tag ---`, as JSON. Errors go to stderr with a non-zero exit.
import { readFileSync } from "node:fs";
import { renderPromptRequest } from "../src/engine/templates/prompt-request.ts";

function fail(message: string, code: number): never {
  process.stderr.write(`render-prompt: ${message}\n`);
  process.exit(code);
}

function main(): void {
  const path = process.argv[2];
  if (!path || process.argv.length > 3) fail("usage: npm run --silent render-prompt -- FILE.json", 2);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    fail(`cannot read ${path}: ${(error as Error).message}`, 2);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`${path} is not JSON: ${(error as Error).message}`, 1);
  }
  let output: string;
  try {
    output = renderPromptRequest(input);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
  process.stdout.write(output);
}

main();
