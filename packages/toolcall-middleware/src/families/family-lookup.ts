// How a family is found by a model id, a served model's name, a recorded template name or its id,
// and what follows from its light fields (recommended protocol, thinking default). One set of
// rules for both lists: the registry's full families (registry.ts) and their light index
// (family-index.ts, what the lab's first screen reads before the templates load).
import { isBuiltInProtocol } from "../protocols/built-in-protocol-names.ts";
import { getProtocol } from "../protocols/registered-protocols.ts";
import type { ModelFamily, ThinkingSwitch } from "./types.ts";

/** The fields a family is found by. */
export type FindableFamily = Pick<ModelFamily, "id" | "templateName" | "formerTemplateNames" | "webllmIds" | "serverNames" | "protocol">;

/**
 * Ids longer than this name no family: a server's /v1/models or a command line can send any
 * string, and every family's matcher runs on it. The matchers themselves do work linear in the
 * id (one that must find a word after another, "kimi-k2 … thinking", looks from the first
 * occurrence only, from the id's start: `.*` after an unanchored prefix retried at each of
 * 40,000 repeats took 37 s).
 */
export const MAX_MODEL_ID_CHARS = 256;

/** The family of a WebLLM prebuilt model id. */
export function findWebLlmFamily<F extends FindableFamily>(list: readonly F[], modelId: string): F | undefined {
  if (modelId.length > MAX_MODEL_ID_CHARS) return undefined;
  return list.find((family) => family.webllmIds?.test(modelId));
}

/** The family a served model's name points to, or undefined when it is not clear (or the name is over MAX_MODEL_ID_CHARS). */
export function findServerFamily<F extends FindableFamily>(list: readonly F[], modelName: string): F | undefined {
  if (modelName.length > MAX_MODEL_ID_CHARS) return undefined;
  return list.find((family) => family.serverNames?.test(modelName));
}

/** The family whose template a step recorded ("qwen3 (thinking off)" counts as "qwen3"), older names included. */
export function findTemplateFamily<F extends FindableFamily>(list: readonly F[], name: string): F | undefined {
  const base = name.replace(/\s*\(.*\)$/, "");
  return list.find((family) => family.templateName === base || family.formerTemplateNames?.includes(base));
}

/** Whether thinking is on by default for a model (a WebLLM id or a server model name) of a family with the switch. */
export function thinkingDefaultOn(thinking: ThinkingSwitch, model: string): boolean {
  const other = thinking.otherwiseFor?.test(model) ?? false;
  return other ? !thinking.defaultOn : thinking.defaultOn;
}

export interface ProtocolRecommendation {
  protocol: string;
  why: string;
  /** The format the family was trained on, when it is not the recommended one (not registered yet). */
  trained?: string;
}

/**
 * The protocol to preselect for a family: the one it was trained on where the lab has it
 * (looked up at use time, so a format registered later is picked up), else the fallback.
 */
export function recommendedProtocolOf(family: Pick<ModelFamily, "protocol"> | undefined): ProtocolRecommendation {
  if (!family) return { protocol: "xml", why: "no trained tool format; tags are the easiest to follow" };
  const { trained, fallback, why } = family.protocol;
  if (trained && (isBuiltInProtocol(trained) || getProtocol(trained))) return { protocol: trained, why };
  if (trained) return { protocol: fallback, why: `${why}; the lab has no "${trained}" protocol yet, so the nearest one`, trained };
  return { protocol: fallback, why };
}
