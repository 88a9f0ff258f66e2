// A GGUF model's own tokenizer for the page: the token view's source (chooseTokenizer takes it
// as the loaded model's tokenizer) and the prompt count an engine running the file reports.
// The lab's tokenizer worker reads the file's metadata (Range requests or Blob slices) once and
// tokenizes there, so the page never holds the vocabulary.
import { tokenizeFileInWorker } from "../lab-tokenizer.ts";
import type { TokenizerFile } from "../tokenizer-messages.ts";
import type { LoadedModelTokenizer } from "../tokenizer-choice.ts";

/** A GGUF file the page can reach: served at a URL (`/models/<id>.gguf`), or a dropped or picked file. */
export type GgufModelFile = { url: string } | { blob: Blob; key: string };

export function ggufTokenizerFile(file: GgufModelFile): TokenizerFile {
  return "url" in file ? { kind: "gguf-url", url: file.url } : { kind: "gguf-blob", blob: file.blob, key: file.key };
}

/** The model's tokenizer as the token view takes it, for a model of the family whose template is `templateName`. */
export function ggufModelTokenizer({ modelId, templateName, file }: { modelId: string; templateName: string | undefined; file: GgufModelFile }): LoadedModelTokenizer {
  const source = ggufTokenizerFile(file);
  return {
    modelId,
    templateName,
    label: `${modelId}'s own tokenizer (read from its GGUF)`,
    sourceId: `gguf:${"url" in file ? file.url : file.key}`,
    tokenize: (text, controlTokens) => tokenizeFileInWorker(source, text, controlTokens),
  };
}

/** Counts a rendered prompt's tokens as llama.cpp reads it (special tokens parsed, nothing added): `Engine.countPromptTokens`. */
export async function countGgufPromptTokens(file: GgufModelFile, prompt: string): Promise<number> {
  return (await tokenizeFileInWorker(ggufTokenizerFile(file), prompt, [])).ids.length;
}

/** A text's token ids as llama.cpp writes it (special tokens parsed, nothing added): the opener probe's tokens. */
export async function ggufTextTokenIds(file: GgufModelFile, text: string): Promise<number[]> {
  return [...(await tokenizeFileInWorker(ggufTokenizerFile(file), text, [])).ids];
}
