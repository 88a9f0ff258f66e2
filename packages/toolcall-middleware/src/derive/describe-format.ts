// A derived format in words, for the debugger and the command line: how a call is written, how
// several sit together, where the reasoning goes.
import type { DerivedFormat } from "./derive-format.ts";

const q = (text: string) => `\`${text.replace(/\n/g, "\\n")}\``;

/** One sentence each: the call, the calls together, the reasoning. */
export function describeDerivedFormat(format: DerivedFormat): string[] {
  const shape = format.call;
  let body: string;
  if (shape.kind === "json-object")
    body = shape.nameKey === "" ? "a JSON object whose one key is the tool's name and whose value is the arguments" : `JSON {${shape.nameKey}, ${shape.argumentsKey}${shape.argumentsAsString ? " (a JSON string)" : ""}}`;
  else if (shape.kind === "name-then-json") body = `the tool's name${shape.nameIndex ? ` + ${q(shape.nameIndex)}` : ""} + ${shape.afterName.trim() === "" ? "" : `${q(shape.afterName)} + `}the arguments as JSON`;
  else
    body = `the tool's name${shape.nameIndex ? ` + ${q(shape.nameIndex)}` : ""}${shape.afterName.trim() === "" ? "" : ` + ${q(shape.afterName)}`} + each argument as ${q(shape.keyOpen)} KEY ${q(shape.keyValue)}${shape.keyValueEnd !== undefined ? ` TYPE ${q(shape.keyValueEnd)}` : ""} VALUE ${q(shape.valueClose)} (values ${shape.values === "json" ? "as text, or JSON when not a string" : "as Python writes them"})`;
  const call = [format.callOpen, "", format.callClose].map((m, i) => (i === 1 ? body : m === "" ? undefined : q(m))).filter((p) => p !== undefined);
  const sentences = [`A call is ${call.join(" + ")}.`];
  if (format.oneCallPerTurn) sentences.push("The template writes one call per turn.");
  else if (format.sectionOpen !== "") sentences.push(`Several calls sit in one section: ${q(format.sectionOpen)} … ${format.sectionClose === "" ? "(no end marker)" : q(format.sectionClose)}${format.separator.trim() === "," ? ", separated by commas" : ""}.`);
  else sentences.push("Several calls follow one another, each with its own markers.");
  if (format.reasoning) sentences.push(`Reasoning sits between ${q(format.reasoning.open)} and ${q(format.reasoning.close)}${format.reasoning.generationPromptOpens ? " (the prompt opens it when thinking is on)" : ""}.`);
  else sentences.push("The template writes no reasoning markers.");
  if (format.framing && format.framing.length > 0) sentences.push(`Around a reply the template writes ${format.framing.map(q).join(", ")}: read as neither text nor calls.`);
  const result = format.toolResult;
  if (result?.role === "user") sentences.push(`A tool's result is written in a user turn, ${result.close === "" ? `after ${q(result.open)}` : `between ${q(result.open)} and ${q(result.close)}`}.`);
  else if (result?.role === "tool") sentences.push(`A tool's result is written in the template's own turn for results${result.turnOpen.trim() === "" ? "" : ` (${q(result.turnOpen.trim())} …)`}.`);
  return sentences;
}
