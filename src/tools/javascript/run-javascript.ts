import { z } from "zod";
import { defineTool } from "toolcall-middleware/tools/define-tool.ts";
import type { SandboxHost, SandboxWorkerFactory } from "./sandbox-host.ts";

export const DEFAULT_JAVASCRIPT_TIMEOUT_MS = 10_000;

export const runJavascriptParameters = z.object({
  code: z.string().describe("JavaScript to run. A single expression is returned as is; otherwise use `return`. `await` works."),
});

/** The real sandbox: a worker in an opaque-origin frame without network (see sandbox-frame.ts), its code loaded at first use. */
export async function browserSandboxFactory(): Promise<SandboxWorkerFactory> {
  const { createSandboxFrame } = await import("./sandbox-frame.ts");
  return () => createSandboxFrame();
}

export interface RunJavascriptOptions {
  /** How long code may run before its worker is terminated; also the tool's timeout. */
  timeoutMs?: number;
  createWorker?: SandboxWorkerFactory;
  /** Sandboxes at once (default 4); further calls wait for one to end. */
  maxConcurrent?: number;
}

export function createRunJavascriptTool(options: RunJavascriptOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_JAVASCRIPT_TIMEOUT_MS;
  let host: Promise<SandboxHost> | undefined;
  return defineTool({
    name: "run_javascript",
    description:
      "Run JavaScript in an isolated sandbox (a Web Worker: no DOM, no network, no storage, fresh for every call) and get back what it returned and what it printed with console.log. " +
      `A single expression is returned as is; for statements use \`return\`. \`await\` works. Stopped after ${timeoutMs / 1000} s.`,
    parameters: runJavascriptParameters,
    timeoutMs,
    execute: async ({ code }, { signal }) => {
      // Created (and its code loaded) on first use, so that merely listing the tools never starts a
      // worker nor loads the sandbox. One host for every call, however many start at once.
      host ??= (async () => {
        const { createSandboxHost } = await import("./sandbox-host.ts");
        return createSandboxHost({
          createWorker: options.createWorker ?? (await browserSandboxFactory()),
          timeoutMs,
          ...(options.maxConcurrent !== undefined ? { maxConcurrent: options.maxConcurrent } : {}),
        });
      })();
      // A host that could not be made (its code failed to load) is tried again by the next call.
      host.catch(() => (host = undefined));
      const outcome = await (await host).run(code, signal);
      return {
        result: outcome.result ?? null,
        logs: outcome.logs,
        ...(outcome.resultTruncated ? { resultTruncated: true } : {}),
        ...(outcome.logsTruncated ? { logsTruncated: true } : {}),
      };
    },
  });
}
