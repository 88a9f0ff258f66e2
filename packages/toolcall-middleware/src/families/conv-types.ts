// The types of a family's mlc `conv_template` and of what the lab knows beyond it. Shared by the
// renderer (conv-template.ts) and the chat path (chat-path.ts), which import these and not each other.
import type { ChatTurns, TemplateMessage, ToolFraming } from "../types.ts";

/** The fields of an mlc-chat-config.json `conv_template` that shape the prompt text. */
export interface ConvTemplate {
  name: string;
  system_template: string;
  system_message: string;
  roles: { user: string; assistant: string; tool?: string };
  role_templates?: Partial<Record<"user" | "assistant" | "tool", string>>;
  seps: string[];
  role_content_sep?: string;
  role_empty_sep?: string;
  stop_str: string[];
  stop_token_ids: number[];
  system_prefix_token_ids?: number[];
  add_role_after_system_message?: boolean;
  render_empty_system_message?: boolean;
}

/** Extra knowledge about a family that the conv_template does not carry. */
export interface ConvTemplateExtras {
  /**
   * Text of the tokens WebLLM's chat path prepends as ids (system_prefix_token_ids). The raw
   * completion path does not add them, so we write them into the prompt text ourselves.
   */
  prefixText?: string;
  /** Stop strings for tokens the template lists only by id (e.g. Llama 3's <|eot_id|>). */
  extraStop?: string[];
  /** Special tokens of this family, for the debugger's chips. */
  controlTokens: string[];
  /** Whether the model understands Qwen3's empty think block (thinking switched off). */
  supportsThinkingToggle?: boolean;
  /** How the family's own chat template differs from what its conv_template can say. */
  rules?: FamilyRules;
  /** How the family's own chat template writes its trained protocol (see ToolFraming). */
  toolFraming?: ToolFraming;
  /** A family whose own template writes turns no conv_template can say (see TurnWriter). */
  writer?: TurnWriter;
}

/**
 * The prompt of a family whose template writes turns a conv_template cannot say (Gemma 4: tool
 * results continue the model's own turn, and its thinking switch is not Qwen's empty think
 * block): its own rendering, and the chat turns only where WebLLM's chat path writes the same
 * prompt with the family's conv_template (undefined elsewhere: that step takes the raw path).
 */
export interface TurnWriter {
  render: (messages: TemplateMessage[], options: RenderOptions) => string;
  chatTurns: (messages: TemplateMessage[], enableThinking: boolean | undefined) => ChatTurns | undefined;
}

/**
 * What a family's Hugging Face chat template (the format the model was trained on) does that an
 * mlc conv_template has no field for. Each rule is checked against that template in the tests.
 */
export interface FamilyRules {
  /** The template writes `content | trim` (Llama 3, Gemma), the system text's too where it has a system turn. */
  trimContent?: boolean;
  /**
   * Text the template writes at the start of the system turn, before the system message, given
   * the date of rendering (Llama 3.2's knowledge cut-off and today's date).
   */
  systemPreamble?: (today: Date) => string;
  /**
   * The family has no system role: the system text opens the first turn, followed by a blank
   * line (Gemma; Gemma 2's template refuses a system message, Gemma 3's does exactly this).
   */
  systemInFirstTurn?: boolean;
  /**
   * Qwen3 keeps the reasoning of the assistant turns after the last real user query (the tool
   * loop of the current question) as a think block, and drops it from earlier turns.
   */
  thinkBlocksAfterLastQuery?: boolean;
  /**
   * What the template opens the reply with when thinking is on (Qwen3.5's "<think>\n"): the prompt
   * ends inside the think block, and the output starts in reasoning (ChatTemplate.opensReasoning).
   */
  thinkingOpener?: string;
  /** With thinkBlocksAfterLastQuery: every such turn gets a think block, an empty one too (Qwen3.5; Qwen3 writes an empty one only on the last turn). */
  emptyThinkBlocks?: boolean;
  /**
   * The family writes every turn's whole text itself, its control words included, on a
   * conv_template whose roles write nothing around it (Mistral v0.3: the system text and the tool
   * list go into the last user turn, whose place changes with each question, which no
   * conv_template field can say). The system text is then written only where this puts it.
   */
  writeTurn?: (turn: WrittenTurn) => string;
}

/** A turn as FamilyRules.writeTurn gets it. */
export interface WrittenTurn {
  role: "user" | "assistant" | "tool";
  /** The turn's text (an assistant turn as the conversation renders it, not as generated). */
  text: string;
  /** What the conversation puts before this turn (the tool list before the last user turn). */
  header?: string;
  /** The conversation's first turn (where the prompt's opening token goes). */
  first: boolean;
  /** The last user turn. */
  lastUser: boolean;
  /** The conversation's system text ("" when none). */
  system: string;
}

export interface RenderOptions {
  addGenerationPrompt: boolean;
  /** false: open the reply with an empty think block, as Qwen3's enable_thinking=false does. */
  enableThinking?: boolean;
}

/** The block Qwen3 gets when thinking is off (the same string WebLLM and Qwen's template use). */
export const EMPTY_THINK_BLOCK = "<think>\n\n</think>\n\n";

/** The turns of a conversation as a conv_template writes them: each turn's text before its role and separators. */
export interface ConvTurns {
  /** The system turn as written (prefix text not included); "" when the template writes none. */
  systemPrompt: string;
  /** The system message inside it. */
  systemMessage: string;
  /** `header`: what the template writes before the turn (a tool list before the first [INST]). */
  turns: Array<{ role: "user" | "assistant" | "tool"; text: string; header?: string }>;
}
