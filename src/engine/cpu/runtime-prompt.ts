// The prompt as llama.cpp is given it. llama.cpp tokenizes a text prompt with its special tokens
// on and, where the GGUF says add_bos_token (Gemma 3), puts a BOS token in front itself; the
// lab's rendered prompt already starts with the template's `<bos>`, so sent as is the model
// would read two. Where the runtime adds one, the prompt's own leading BOS text is left out, so
// the model reads exactly one BOS: the runtime's, at the same place.

export interface BosHandling {
  /** Whether the runtime puts a BOS token before a text prompt (the GGUF's add_bos_token). */
  runtimeAddsBos: boolean;
  /** The BOS token's text (Gemma's `<bos>`), where known. */
  bosText?: string;
}

export function promptForRuntime(prompt: string, bos: BosHandling): string {
  if (bos.runtimeAddsBos && bos.bosText && prompt.startsWith(bos.bosText)) return prompt.slice(bos.bosText.length);
  return prompt;
}
