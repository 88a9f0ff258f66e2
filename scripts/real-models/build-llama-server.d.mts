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
/** The llama.cpp source bundle of the pinned node-llama-cpp, fetched (npm pack) once into the cache. */
export function sourceBundle(): string;
/** The commit a git bundle holds. */
export function bundleCommit(bundle: string): string;
/** A short key of this processor's architecture and instruction set. */
export function cpuKey(): string;
/** Records a binary's sha256 and size beside it, right after its build. */
export function recordBinary(binary: string): void;
