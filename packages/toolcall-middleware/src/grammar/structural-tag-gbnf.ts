// A protocol's structural tag (what WebLLM's XGrammar takes) as a llama.cpp grammar (GBNF), in
// the two forms llama.cpp has:
// - `grammar`: one plain grammar for the whole output — free text that does not contain a
//   trigger, then a call, then free text again. Every llama.cpp engine takes it: wllama's
//   `sampling.grammar` (the lab's CPU engine) and llama-server's `grammar` field.
// - `lazy`: the calls only, with the triggers that switch it on (llama-server's `grammar_lazy`
//   and `grammar_triggers`): text before a trigger is sampled free, so it costs nothing there.
//   wllama 3.x has no lazy grammars, so the CPU engine uses `grammar`. A required call
//   (at_least_one) opens the output, as in XGrammar, so it has no lazy form.
import type { StructuralTag, StructuralTagFormat, StructuralTagItem } from "../types.ts";
import { addEbnf } from "./ebnf-to-gbnf.ts";
import { GbnfBuilder, GrammarConversionError, gbnfLiteral } from "./gbnf-builder.ts";
import { JsonSchemaGbnf } from "./json-schema-gbnf.ts";
import { addTextWithout } from "./text-without.ts";

export { GrammarConversionError };

export interface GbnfGrammars {
  /** The whole output as one plain grammar (free text, calls, free text). */
  grammar: string;
  /** The calls alone, for engines with lazy grammars: constrained from the first trigger on. */
  lazy: { grammar: string; triggers: string[] } | null;
}

interface Context {
  builder: GbnfBuilder;
  /** What ends the format being converted (its tag's end), for free text inside it. */
  until: string | undefined;
}

function literal(context: Context, text: string): string {
  return text === "" ? '""' : gbnfLiteral(text);
}

function convert(format: StructuralTagFormat, context: Context, hint: string): string {
  const { builder } = context;
  switch (format.type) {
    case "const_string":
      return literal(context, format.value);
    case "any_text":
      return context.until ? addTextWithout(builder, [context.until], `${hint}-text`) : builder.add(`${hint}-text`, ".*");
    case "json_schema":
      return new JsonSchemaGbnf(builder, format.json_schema).rule(format.json_schema, `${hint}-args`);
    case "qwen_xml_parameter":
      return qwenXmlParameters(format.json_schema, context, hint);
    case "grammar":
      return addEbnf(builder, format.grammar, `${hint}-g`);
    case "regex":
      throw new GrammarConversionError(`A regular expression (${format.pattern.slice(0, 40)}) has no GBNF form in the lab: the protocol cannot be constrained on llama.cpp.`);
    case "sequence":
      return format.elements.map((element, i) => `(${convert(element, context, `${hint}-${i}`)})`).join(" ") || '""';
    case "or":
      return builder.add(`${hint}-or`, format.elements.map((element, i) => convert(element, context, `${hint}-${i}`)).join(" | "));
    case "tag":
      return tag(format, context, hint);
    case "triggered_tags":
      return triggeredTags(format, context, hint);
    case "tags_with_separator": {
      const one = builder.add(`${hint}-tags`, format.tags.map((item, i) => tag(item, context, `${hint}-t${i}`)).join(" | "));
      if (format.stop_after_first) return format.at_least_one ? one : `(${one})?`;
      const list = `${one} (${literal(context, format.separator)} ${one})*`;
      return format.at_least_one ? list : `(${list})?`;
    }
  }
}

function tag(item: StructuralTagItem, context: Context, hint: string): string {
  const inner = convert(item.content, { ...context, until: item.end || context.until }, hint);
  return context.builder.add(`${hint}-call`, `${literal(context, item.begin)} ${inner} ${literal(context, item.end)}`);
}

type TriggeredTags = Extract<StructuralTagFormat, { type: "triggered_tags" }>;

/** The calls a trigger may open: every tag whose begin starts with one of the triggers. */
function calls(format: TriggeredTags, context: Context, hint: string): string {
  for (const item of format.tags) {
    if (!format.triggers.some((trigger) => item.begin.startsWith(trigger))) {
      throw new GrammarConversionError(`The tag "${item.begin.slice(0, 40)}" does not begin with any of its triggers.`);
    }
  }
  return context.builder.add(`${hint}-calls`, format.tags.map((item, i) => tag(item, context, `${hint}-t${i}`)).join(" | "));
}

function triggeredTags(format: TriggeredTags, context: Context, hint: string): string {
  const { builder } = context;
  const call = calls(format, context, hint);
  const text = addTextWithout(builder, format.triggers, `${hint}-free`);
  // As XGrammar: with at_least_one the output opens with a call; after the first call it ends
  // (stop_after_first) or goes on with free text and calls.
  if (format.stop_after_first) return format.at_least_one ? call : `${text} (${call})?`;
  return format.at_least_one ? `${call} ${text} (${call} ${text})*` : `${text} (${call} ${text})*`;
}

/**
 * Qwen3-Coder's parameters: `\n<parameter=NAME>\nVALUE\n</parameter>` for each property in the
 * schema's order (required ones always, optional ones each optional); a string is raw text (an
 * enum's values as written), any other value is JSON.
 */
function qwenXmlParameters(schema: Parameters<JsonSchemaGbnf["rule"]>[0], context: Context, hint: string): string {
  const { builder } = context;
  const json = new JsonSchemaGbnf(builder, schema);
  const object = typeof schema === "object" ? (schema as Record<string, unknown>) : {};
  const properties = (object.properties ?? {}) as Record<string, Parameters<JsonSchemaGbnf["rule"]>[0]>;
  const required = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
  const close = "\n</parameter>";
  const parts = Object.entries(properties).map(([name, property]) => {
    const spec = (typeof property === "object" ? property : {}) as Record<string, unknown>;
    const rawTexts = Array.isArray(spec.enum) && spec.enum.every((value) => typeof value === "string") ? (spec.enum as string[]) : typeof spec.const === "string" ? [spec.const] : undefined;
    const value = rawTexts
      ? builder.add(`${hint}-${name}`, rawTexts.map((text) => literal(context, text)).join(" | "))
      : spec.type === "string"
        ? addTextWithout(builder, [close], `${hint}-${name}-text`)
        : json.rule(property, `${hint}-${name}`);
    const one = `${gbnfLiteral(`\n<parameter=${name}>\n`)} ${value} ${gbnfLiteral(close)}`;
    return required.has(name) ? one : `(${one})?`;
  });
  return builder.add(`${hint}-parameters`, parts.join(" ") || '""');
}

/** The GBNF grammars of a structural tag; throws GrammarConversionError where a part has no GBNF form. */
export function structuralTagToGbnf(structuralTag: StructuralTag): GbnfGrammars {
  const plain = new GbnfBuilder();
  const root = convert(structuralTag.format, { builder: plain, until: undefined }, "out");
  const format = structuralTag.format;
  let lazy: GbnfGrammars["lazy"] = null;
  // A required call opens the output, so there is nothing to wait for: no lazy form.
  if (format.type === "triggered_tags" && !format.at_least_one) {
    // llama.cpp starts a lazy grammar at the trigger: from there the output is a call, then
    // (unless it stops after the first) free text and calls as in the plain grammar.
    const builder = new GbnfBuilder();
    const context = { builder, until: undefined };
    const call = calls(format, context, "out");
    const text = addTextWithout(builder, format.triggers, "out-free");
    lazy = { grammar: builder.toString(format.stop_after_first ? call : `${call} ${text} (${call} ${text})*`), triggers: [...format.triggers] };
  }
  return { grammar: plain.toString(root), lazy };
}
