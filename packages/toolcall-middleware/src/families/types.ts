// A model family: everything the lab knows about one family of models, in one file. Both engines
// (WebLLM in the page, a server in prompt mode) look families up in the registry (registry.ts);
// nothing here imports React or WebLLM, so the families can ship with the middleware.
import type { ChatTemplate } from "../types.ts";
import type { ConvTemplate, ConvTemplateExtras, ModelChatTemplate } from "./conv-template.ts";
import type { SamplingDefaults } from "./sampling.ts";

/**
 * What a model keeps between generations. `kv_cache`: a prefix of the prompt can be kept and
 * only the rest prefilled. `hybrid`: attention layers with a KV cache plus recurrent layers
 * (Qwen3.5's Gated DeltaNet) whose state holds the whole past and cannot be cut back to a prefix.
 */
export type KvStateKind = "kv_cache" | "hybrid";

export interface ProtocolChoice {
  /** The protocol the family was trained on, by registry name (it may not be registered yet). */
  trained?: string;
  /** The protocol the lab recommends while `trained` is not registered, or when there is none. */
  fallback: string;
  /** Why (shown in the model picker). */
  why: string;
}

/**
 * A family whose template honours a thinking switch (`enable_thinking`, or gpt-oss's reasoning
 * effort) declares it here: the server pane shows the switch for it, and where nobody sets it
 * (render-prompt without `thinking`) the family's default applies.
 */
export interface ThinkingSwitch {
  /** Whether thinking is on by default for the family's models. */
  defaultOn: boolean;
  /**
   * Models (WebLLM ids or server model names) whose default is the other one (Qwen3.5's small
   * ones: off). Data, not a function, so the light family index (family-index.ts) can carry it.
   */
  otherwiseFor?: RegExp;
}

/**
 * One of WebLLM's prebuilt-model records (`prebuiltAppConfig.model_list` of @mlc-ai/web-llm), as
 * plain data: the fields the model picker and the cache use. A snapshot, because importing WebLLM
 * would put its 6 MB library into the page's first download; webllm.test.ts checks every record
 * against WebLLM's own list, and `npx tsx scripts/snapshot-prebuilt-models.ts` prints a family's.
 */
export interface WebLlmModelRecord {
  model_id: string;
  /** Where the weights live (WebLLM's "model" URL, after https://huggingface.co/mlc-ai/). -1k twins share it. */
  model?: string;
  /** The file name of the compiled model library; several models share one (Hermes-3 and Llama-3.2-3B). */
  model_lib?: string;
  vram_required_MB?: number;
  low_resource_required?: boolean;
  overrides?: { context_window_size?: number };
  /** The lab's, not WebLLM's: billions of parameters, for an id that does not spell its size. */
  paramsB?: number;
}

/** A family's models in WebLLM's prebuilt list, and what its prompts must look like there. */
export interface WebLlmModels {
  records: readonly WebLlmModelRecord[];
  /**
   * How the prompt of a system "S" and a user "Hi" starts: what the tokenizer must see first
   * (WebLLM's raw path adds no special token itself, so a BOS is written here).
   */
  promptStart: string;
  /** Every token a model of this family ends a reply with: each must be a stop string, so none shows as text. */
  endTokens: readonly string[];
}

export interface ModelFamily {
  /** Short id: "qwen3", "llama3", … */
  id: string;
  label: string;
  /**
   * The template name a step records (`step-start.template`), e.g. "qwen3" or "llama-3_1"; these
   * are mlc-llm's conv_template names where there is one, so older logs' names still resolve.
   */
  templateName: string;
  /** Other names steps of older logs recorded for this family's template. */
  formerTemplateNames?: readonly string[];
  /** Label of the template in the server pane's chooser. */
  templateLabel: string;
  /** Matches WebLLM prebuilt model ids of this family (absent: the family runs on servers only). */
  webllmIds?: RegExp;
  /** The family's WebLLM prebuilt models (each matched by `webllmIds`). */
  webllmModels?: WebLlmModels;
  /** The family's name in the model picker for its WebLLM models (default: `label`). */
  catalogLabel?: string;
  /** Matches model names a server lists (Hugging Face repo ids and the like). */
  serverNames?: RegExp;
  /**
   * A GGUF file's `general.architecture` that means this family alone, for a file whose name says
   * nothing (not "llama": SmolLM2, Llama 3, Mistral… all use it).
   */
  ggufArchitecture?: string;
  /** The mlc conv_template (WebLLM's chat path and KV reuse) and what the lab knows beyond it. */
  conv?: { template: ConvTemplate; extras: ConvTemplateExtras };
  /**
   * A template written by hand: for families without a conv_template (server only), and for a
   * family whose template a server's prompt mode writes where WebLLM's chat path cannot
   * (Ministral 3's tool list before the first [INST]).
   */
  template?: (settings: { enableThinking?: boolean }) => ChatTemplate;
  /** The family's thinking switch, where its template has one. */
  thinking?: ThinkingSwitch;
  /** Control tokens, for the debugger's chips (the template's own). */
  controlTokens: readonly string[];
  protocol: ProtocolChoice;
  /** Sampling values with thinking on and off (families without a switch ignore it). */
  sampling: (thinking: boolean) => SamplingDefaults;
  kvState: KvStateKind;
  /** The model's own context window, and what WebLLM's builds give it. */
  contextNotes: string;
}

export type { ModelChatTemplate };
