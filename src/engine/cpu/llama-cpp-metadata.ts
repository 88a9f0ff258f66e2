// The metadata llama.cpp read of a loaded GGUF (wllama gives its key/values as text, arrays
// abridged) in the shape of the lab's GGUF reader, so an opened file's family is found by the
// same rules as every GGUF (src/gguf/gguf-family.ts) without reading the file a second time.
// Only text keys are meaningful here (name, base name, architecture, chat template).
import type { GgufMetadata } from "../../gguf/gguf-metadata.ts";

export function ggufMetadataFromLlamaCpp(metadata: Record<string, string>, chatTemplate: string | null): GgufMetadata {
  const values = new Map<string, string>(Object.entries(metadata).filter(([key]) => key !== "tokenizer.chat_template"));
  // The template as wllama reads it whole (the metadata's copy may be abridged).
  if (chatTemplate) values.set("tokenizer.chat_template", chatTemplate);
  return { version: 0, tensorCount: 0, values, metadataBytes: 0 };
}
