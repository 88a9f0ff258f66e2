// A chat template for a GGUF the registry has no family for: the GGUF's own embedded Jinja
// template, rendered as is with @huggingface/jinja (what llama.cpp's server and Hugging Face do).
// The BOS text is not known without the vocabulary, so `bos_token` renders empty: where the
// GGUF says add_bos_token, llama.cpp puts the BOS in front itself (the prompt shown lacks it).
//
// The template is the file's, so it is bounded (jinja-budget.ts): a render that runs past
// TEMPLATE_RENDER_BUDGET (time, or a range too long) or makes a text past its size bound
// refuses with PromptRenderRefused, and the run ends saying which, with nothing sent.
import { Template } from "@huggingface/jinja";
import type { ChatTemplate } from "toolcall-middleware/types.ts";
import { renderWithinBudget, TEMPLATE_RENDER_BUDGET, type RenderBudget } from "./jinja-budget.ts";

export function ggufEmbeddedChatTemplate(source: string, modelName: string, budget: RenderBudget = TEMPLATE_RENDER_BUDGET): ChatTemplate {
  const template = new Template(source);
  return {
    name: `gguf:${modelName}`,
    render: (messages, { addGenerationPrompt }) =>
      renderWithinBudget(
        template,
        {
          messages: messages.map((m) => ({ role: m.role, content: m.content })),
          add_generation_prompt: addGenerationPrompt,
          bos_token: "",
          eos_token: "",
        },
        budget,
        `The chat template embedded in ${modelName}`,
      ),
    // llama.cpp stops at the model's end-of-generation tokens itself.
    stop: [],
    controlTokens: [],
  };
}
