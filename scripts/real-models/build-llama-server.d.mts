export interface LlamaServerBuild {
  /** Absolute path of the llama-server binary. */
  binary: string;
  /** The llama.cpp commit it was built from. */
  commit: string;
  /** llama.cpp's `models/templates/` (vendors' chat templates) as that commit carries it. */
  templates: string;
  /** Why the binary found may not be run (owner, permissions, its recorded sha256), if so. */
  untrusted?: string;
}
export function llamaServerRoot(): string;
export function findLlamaServer(): LlamaServerBuild | undefined;
export function ensureLlamaServer(): LlamaServerBuild;
export function untrustedBinary(binary: string, cacheRoot?: string): string | undefined;
export function tarballIntegrity(path: string): string;
