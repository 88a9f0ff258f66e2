// Runs chat-reference (chat-reference.cpp, built by `npm run chat-reference`): llama.cpp's own
// rendering of a template (common_chat_templates_apply) and its own reading of model outputs
// (common_chat_parse), as JSON. One process per template; the template never runs anywhere else.
import { spawn } from "node:child_process";
import { findChatReference } from "./build-chat-reference.mjs";

export interface ChatReferenceRequest {
  template: string;
  bos_token?: string;
  eos_token?: string;
  messages: unknown[];
  tools?: unknown[];
  parallel_tool_calls?: boolean;
  reasoning_format?: "auto" | "none" | "deepseek";
  /** Model outputs, each the text generated after the generation prompt. */
  outputs: string[];
}

export interface ChatReferenceMessage {
  content: string;
  reasoning_content: string;
  /** `arguments` is JSON text, as llama.cpp hands it to an OpenAI client. */
  tool_calls: { name: string; arguments: string }[];
}

export type ChatReferenceResponse =
  | { format: string; prompt: string; generation_prompt: string; has_parser: boolean; parses: (ChatReferenceMessage | { error: string })[] }
  | { error: string };

/** The reference to run, or why it cannot run; under CI a missing build is a failure (npm test builds it where llama-server is built). */
export function chatReferenceForTests(): { run: true; binary: string } | { run: false; why: string } {
  const build = findChatReference();
  let why: string | undefined;
  if (!build) why = "chat-reference is not built on this machine: run `npm run chat-reference` (it needs llama-server's source: `npm run llama-server`)";
  else if (build.untrusted) why = `the chat-reference found is not run: ${build.untrusted}`;
  if (why === undefined && build) return { run: true, binary: build.binary };
  return { run: false, why: why ?? "unknown" };
}

/** A template that makes llama.cpp's renderer loop is stopped, and said so, rather than waited on for ever. */
const GIVE_UP_AFTER_MS = 120_000;

export function runChatReference(binary: string, request: ChatReferenceRequest): Promise<ChatReferenceResponse> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let gaveUp = false;
    const timer = setTimeout(() => {
      gaveUp = true;
      child.kill("SIGKILL");
    }, GIVE_UP_AFTER_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`chat-reference could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (gaveUp) return resolve({ error: `llama.cpp did not finish in ${GIVE_UP_AFTER_MS / 1000} s and was stopped` });
      // An assertion inside llama.cpp (GGML_ASSERT aborts) is its answer for this template, not this program's failure.
      if (signal) return resolve({ error: `llama.cpp stopped on ${signal}${stderr ? `: ${stderr.slice(-500)}` : ""}` });
      if (code !== 0) return reject(new Error(`chat-reference exited with ${code}: ${stderr.slice(-2000)}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString("utf8")) as ChatReferenceResponse);
      } catch (error) {
        reject(new Error(`chat-reference wrote no JSON: ${(error as Error).message}`));
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}
