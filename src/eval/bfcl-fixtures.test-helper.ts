// BFCL's own cases and answers, as kept under public/eval/bfcl/ (see its SOURCE.md), for tests.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { importBfclSuite, type EvalCase } from "./suite.ts";

const dir = fileURLToPath(new URL("../../public/eval/bfcl/", import.meta.url));

export function bfclFile(name: string): string {
  return readFileSync(`${dir}${name}`, "utf8");
}

export function bfclCategory(category: string): EvalCase[] {
  const imported = importBfclSuite({
    questions: bfclFile(`${category}.questions.jsonl`),
    ...(category === "irrelevance" ? {} : { answers: bfclFile(`${category}.answers.jsonl`) }),
  });
  if (!imported.ok) throw new Error(imported.error);
  return imported.cases;
}

export function bfclCase(id: string): EvalCase {
  const category = id.replace(/_[0-9]+$/, "");
  const found = bfclCategory(category).find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id}`);
  return found;
}
