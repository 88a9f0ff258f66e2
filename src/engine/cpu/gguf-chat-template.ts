// A chat template for a GGUF the registry has no family for: the GGUF's own embedded Jinja
// template, rendered as is with @huggingface/jinja (what llama.cpp's server and Hugging Face do).
// The BOS text is not known without the vocabulary, so `bos_token` renders empty: where the
// GGUF says add_bos_token, llama.cpp puts the BOS in front itself (the prompt shown lacks it).
import { Template } from "@huggingface/jinja";
import type { ChatTemplate } from "toolcall-middleware/types.ts";

export function ggufEmbeddedChatTemplate(source: string, modelName: string): ChatTemplate {
  const template = new Template(source);
  return {
    name: `gguf:${modelName}`,
    render: (messages, { addGenerationPrompt }) =>
      template.render({
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        add_generation_prompt: addGenerationPrompt,
        bos_token: "",
        eos_token: "",
      }),
    // llama.cpp stops at the model's end-of-generation tokens itself.
    stop: [],
    controlTokens: [],
  };
}
