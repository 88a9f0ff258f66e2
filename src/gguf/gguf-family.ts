// Which of the registry's model families a GGUF file is, from its own metadata: the model's
// name and base name (the same matchers a server's model name goes through), then its
// architecture where an architecture means one family. A family is taken only where the file's
// embedded chat template (when it has one) writes that family's turn tokens: a fine-tune that
// kept the name but changed the template is run with its own template instead.
import { families, familyOfServerModel } from "toolcall-middleware/families/registry.ts";
import type { ModelFamily } from "toolcall-middleware/families/types.ts";
import { ggufString, type GgufMetadata } from "./gguf-metadata.ts";


type MatchKey = "general.name" | "general.basename" | "general.architecture";

export type GgufFamilyMatch =
  | {
      kind: "family";
      family: ModelFamily;
      /** The metadata key that named the family. */
      matchedBy: MatchKey;
      /** The file's own chat template, when it has one. */
      embeddedTemplate: string | undefined;
      /** For the person: how the family was found. */
      sentence: string;
    }
  | {
      kind: "embedded-template";
      /** The file's chat template, to render prompts with as is. */
      template: string;
      sentence: string;
    }
  | { kind: "none"; sentence: string };

/** Spaces and underscores as dashes, so "Gemma 3 270m" reads like a served name ("gemma-3-270m"). */
function asModelName(name: string): string {
  return name.trim().replace(/[\s_]+/g, "-");
}

/** Whether the embedded template writes one of the family's control tokens (true without a template). */
function templateFits(family: ModelFamily, template: string | undefined): boolean {
  if (template === undefined) return true;
  const turnTokens = family.controlTokens.filter((token) => !/^<\/?s>$|^<bos>$|^<eos>$/.test(token));
  return turnTokens.length === 0 || turnTokens.some((token) => template.includes(token));
}

export function familyFromGguf(metadata: GgufMetadata): GgufFamilyMatch {
  const template = ggufString(metadata, "tokenizer.chat_template");
  const architecture = ggufString(metadata, "general.architecture");
  const candidates: Array<[MatchKey, string | undefined, (value: string) => ModelFamily | undefined]> = [
    ["general.name", ggufString(metadata, "general.name"), (name) => familyOfServerModel(asModelName(name))],
    ["general.basename", ggufString(metadata, "general.basename"), (name) => familyOfServerModel(asModelName(name))],
    ["general.architecture", architecture, (arch) => families.find((f) => f.ggufArchitecture === arch)],
  ];
  const doubted: string[] = [];
  for (const [key, value, find] of candidates) {
    if (value === undefined) continue;
    const family = find(value);
    if (!family) continue;
    if (!templateFits(family, template)) {
      doubted.push(`${key} "${value}" points to ${family.label}, but the file's chat template does not write ${family.label}'s turn tokens`);
      continue;
    }
    const templateNote = template === undefined ? " The file has no chat template of its own; the lab writes the family's." : "";
    return { kind: "family", family, matchedBy: key, embeddedTemplate: template, sentence: `Read as ${family.label}: the file's ${key} is "${value}".${templateNote}` };
  }
  const why = doubted.length > 0 ? `${doubted.join("; ")}.` : `The lab's model families do not know this model (${describe(metadata, architecture)}).`;
  if (template !== undefined) {
    return { kind: "embedded-template", template, sentence: `${why} Its prompts are written with the chat template inside the file, as is.` };
  }
  return { kind: "none", sentence: `${why} The file has no chat template either, so the lab cannot write its prompts.` };
}

function describe(metadata: GgufMetadata, architecture: string | undefined): string {
  const name = ggufString(metadata, "general.name");
  return [name !== undefined ? `name "${name}"` : "no name", architecture !== undefined ? `architecture "${architecture}"` : "no architecture"].join(", ");
}
