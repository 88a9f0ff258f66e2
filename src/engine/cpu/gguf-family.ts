// Which registry family an opened GGUF belongs to, from what llama.cpp read of its metadata: its
// name (general.name, matched like a server's model name), else its architecture. A stand-in
// until the lab's own GGUF reader (src/gguf/, familyFromGguf) is merged.
import { familyById, familyOfServerModel } from "toolcall-middleware/families/registry.ts";
import type { ModelFamily } from "toolcall-middleware/families/types.ts";

const ARCHITECTURE_FAMILIES: Record<string, string> = { gemma3: "gemma3", gemma2: "gemma2", qwen3: "qwen3", qwen2: "qwen2" };

export function familyFromGgufMetadata(metadata: Record<string, string>): ModelFamily | undefined {
  const name = metadata["general.name"] ?? "";
  const byName = name ? familyOfServerModel(name.replace(/\s+/g, "-")) : undefined;
  if (byName) return byName;
  const architecture = metadata["general.architecture"] ?? "";
  const id = ARCHITECTURE_FAMILIES[architecture];
  return id ? familyById(id) : undefined;
}
