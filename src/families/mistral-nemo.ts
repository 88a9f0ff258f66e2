// Mistral Nemo Instruct (2407; server only): Mistral's [INST] turns on the Tekken tokenizer,
// written without the spaces v0.3 puts around them: `<s>[INST]user[/INST]reply</s>`; the system
// text goes in front of the last message when it is the user's, as Nemo's own template does.
import type { ChatTemplate } from "../middleware/types.ts";
import { mistral } from "./mistral.ts";
import { labDefaults } from "./sampling.ts";
import { splitSystem } from "./split-system.ts";
import type { ModelFamily } from "./types.ts";

const nemoTemplate: ChatTemplate = {
  name: "mistral-nemo",
  stop: ["</s>"],
  controlTokens: mistral.controlTokens as string[],
  // The reply follows [/INST] directly: there is no generation prompt to add.
  render(messages) {
    const { system, turns } = splitSystem(messages);
    let out = "<s>";
    turns.forEach((message, i) => {
      if (message.role === "assistant") {
        out += `${message.content}</s>`;
        return;
      }
      // Nemo's template writes the system text only into the conversation's last message.
      const text = i === turns.length - 1 && system ? `${system}\n\n${message.content}` : message.content;
      out += `[INST]${text}[/INST]`;
    });
    return out;
  },
};

export const mistralNemo: ModelFamily = {
  id: "mistral-nemo",
  label: "Mistral Nemo",
  templateName: "mistral-nemo",
  templateLabel: "Mistral Nemo ([INST] without spaces)",
  serverNames: /mistral-?nemo/i,
  template: () => nemoTemplate,
  controlTokens: mistral.controlTokens,
  protocol: { trained: "mistral", fallback: "mistral", why: "Mistral Nemo was trained on [TOOL_CALLS]" },
  sampling: () => ({ ...labDefaults("Mistral Nemo"), temperature: 0.3, source: "Mistral Nemo's model card (temperature 0.3), the lab's top-p" }),
  kvState: "kv_cache",
  contextNotes: "128k tokens.",
};
