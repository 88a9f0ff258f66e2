// The built-in suite: BFCL's cases kept under public/eval/bfcl/ (see its SOURCE.md), read on
// demand — by fetch in the page, from the disk by the command — never bundled with the app.
import { importBfclSuite, type EvalCase } from "./suite.ts";

export const BUILTIN_CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"] as const;
export type BuiltinCategory = (typeof BUILTIN_CATEGORIES)[number];

export function isBuiltinCategory(name: string): name is BuiltinCategory {
  return (BUILTIN_CATEGORIES as readonly string[]).includes(name);
}

/** Paths relative to the app's public directory. */
export function builtinFiles(category: BuiltinCategory): { questions: string; answers?: string } {
  const base = `eval/bfcl/${category}`;
  return category === "irrelevance" ? { questions: `${base}.questions.jsonl` } : { questions: `${base}.questions.jsonl`, answers: `${base}.answers.jsonl` };
}

/** Reads the chosen categories through `readText` (a path relative to public/); throws with the import's message. */
export async function loadBuiltinSuite(categories: readonly BuiltinCategory[], readText: (path: string) => Promise<string>): Promise<EvalCase[]> {
  const cases: EvalCase[] = [];
  for (const category of categories) {
    const files = builtinFiles(category);
    const [questions, answers] = await Promise.all([readText(files.questions), files.answers ? readText(files.answers) : Promise.resolve(undefined)]);
    const imported = importBfclSuite({ questions, ...(answers !== undefined ? { answers } : {}), questionsName: files.questions, ...(files.answers ? { answersName: files.answers } : {}) });
    if (!imported.ok) throw new Error(imported.error);
    cases.push(...imported.cases);
  }
  return cases;
}

/**
 * A sample of cases: per category the first `perCategory` after a seeded shuffle (seed 0: the
 * file's order), so two runs with the same seed compare the same cases.
 */
export function sampleCases(cases: readonly EvalCase[], perCategory: number, seed = 0): EvalCase[] {
  const byCategory = new Map<string, EvalCase[]>();
  for (const testCase of cases) byCategory.set(testCase.category, [...(byCategory.get(testCase.category) ?? []), testCase]);
  const out: EvalCase[] = [];
  for (const list of byCategory.values()) {
    const order = seed === 0 ? list : shuffled(list, seed);
    out.push(...order.slice(0, Math.max(0, perCategory)));
  }
  return out;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: small, deterministic, enough for picking cases.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
