// A chat template for a GGUF the registry has no family for: the GGUF's own embedded Jinja
// template, rendered as is with @huggingface/jinja (what llama.cpp's server and Hugging Face do).
// The BOS text is not known without the vocabulary, so `bos_token` renders empty: where the
// GGUF says add_bos_token, llama.cpp puts the BOS in front itself (the prompt shown lacks it).
//
// The template is the file's, so it renders in a worker with bounds (off-thread-template.ts): a
// render past its time budget, or one that makes a text past its size bound or a range too long,
// refuses with PromptRenderRefused, the worker is stopped, and the run ends saying which bound,
// with nothing sent. The page's thread never runs it.
import type { ChatTemplate } from "toolcall-middleware/types.ts";
import { OFF_THREAD_RENDER_BUDGET, OffThreadTemplate, type SpawnTemplateRenderer } from "../templates/off-thread-template.ts";

export interface GgufEmbeddedTemplate {
  template: ChatTemplate;
  /** The worker that renders it, also the renderer of a protocol derived from it (its tool section). */
  renderer: OffThreadTemplate;
}

/** Opens the template in its worker; throws the parser's words where it is not valid Jinja. */
export async function openGgufEmbeddedChatTemplate(source: string, modelName: string, options: { milliseconds?: number; spawn?: SpawnTemplateRenderer } = {}): Promise<GgufEmbeddedTemplate> {
  const budget = { ...OFF_THREAD_RENDER_BUDGET, ...(options.milliseconds !== undefined ? { milliseconds: options.milliseconds } : {}) };
  const renderer = await OffThreadTemplate.open(source, `The chat template embedded in ${modelName}`, { budget, ...(options.spawn ? { spawn: options.spawn } : {}) });
  const template: ChatTemplate = {
    name: `gguf:${modelName}`,
    render: (messages, { addGenerationPrompt }) =>
      renderer.render({
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        add_generation_prompt: addGenerationPrompt,
        bos_token: "",
        eos_token: "",
      }),
    // llama.cpp stops at the model's end-of-generation tokens itself.
    stop: [],
    controlTokens: [],
  };
  return { template, renderer };
}
