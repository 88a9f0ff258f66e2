// Test-only: WebLLM's own conversation formatter. The bundled library does not export
// `getConversation`, so a copy of the bundle with one extra export line is imported. Nothing
// else is changed, so what we compare against is WebLLM's real code.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

export interface WebLlmConversation {
  override_system_message?: string;
  appendMessage: (role: "user" | "assistant" | "tool", message: string) => void;
  appendReplyHeader: (role: "assistant") => void;
  appendEmptyThinkingReplyHeader: (role: "assistant", block: string) => void;
  getPromptArray: () => Array<string | unknown[]>;
  getStopStr: () => string[];
}

type GetConversation = (template: unknown) => WebLlmConversation;

let cached: Promise<GetConversation> | undefined;

export function loadWebLlmGetConversation(): Promise<GetConversation> {
  cached ??= (async () => {
    const require = createRequire(import.meta.url);
    const packageJson = require.resolve("@mlc-ai/web-llm/package.json");
    const bundle = readFileSync(join(dirname(packageJson), "lib", "index.js"), "utf8");
    if (!/^function getConversation\(/m.test(bundle)) throw new Error("WebLLM's bundle no longer defines getConversation; update this helper");
    const dir = join(tmpdir(), "toolcall-lab-webllm");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `index-with-conversation-${process.pid}.mjs`);
    writeFileSync(file, `${bundle.replace(/^\/\/# sourceMappingURL=.*$/m, "")}\nexport { getConversation as __getConversation };\n`);
    const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { __getConversation: GetConversation };
    return module.__getConversation;
  })();
  return cached;
}
