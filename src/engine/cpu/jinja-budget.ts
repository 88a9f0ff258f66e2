// A Jinja template from a file (a GGUF's own chat template) runs in the page with bounds: a
// template that doubled a string only when the lab's system prompt was present (so llama.cpp's
// load-time check passed) made a 134 MB prompt and crashed the tab; a 3,000 × 3,000 loop froze it
// 6–15 s at every message; `range(300000000)` for as long as it ran. This renders with
// @huggingface/jinja's own parser and interpreter, checking as it goes:
// - time: the clock is read every TIME_CHECK_STEPS evaluations, and past `milliseconds` it stops;
// - size: any text the template makes (a variable, a concatenation, the output) past `chars`;
// - `range()` of more than `rangeItems` items is refused before its list is made.
// Past either bound it throws PromptRenderRefused naming which; nothing is rendered.
// (A worker with a timeout would also survive a template that blocks inside one built-in call;
// renderPrompt, the one rendering function, is synchronous, and every built-in that could run long
// on its own — range — is bounded here instead.)
import { Environment, Interpreter } from "@huggingface/jinja";
import { PromptRenderRefused } from "toolcall-middleware/templates/render-refused.ts";
import { withJinja2Behaviours } from "./jinja-python-compat.ts";
import type { ParsedTemplate } from "./jinja-tokenize.ts";

export interface RenderBudget {
  /** Wall time one render may take. */
  milliseconds: number;
  /** The longest text a render may make (the prompt included). */
  chars: number;
  /** The most items `range()` may make. */
  rangeItems: number;
}

/**
 * 150 ms keeps a refused render under the 200 ms a task may hold the page (an ordinary chat
 * template renders in well under 5 ms); 2,000,000 characters is ≈ 500k tokens, more than any
 * context window a GGUF the page runs has.
 */
export const TEMPLATE_RENDER_BUDGET: RenderBudget = { milliseconds: 150, chars: 2_000_000, rangeItems: 100_000 };

/** Steps (evaluations and loop iterations) between two reads of the clock. */
const TIME_CHECK_STEPS = 64;

type Statement = Parameters<Interpreter["evaluate"]>[0];
type RuntimeValue = ReturnType<Interpreter["evaluate"]>;

class BudgetedInterpreter extends Interpreter {
  private steps = 0;

  constructor(
    env: Environment,
    private readonly deadline: number,
    private readonly budget: RenderBudget,
    private readonly what: string,
  ) {
    super(env);
  }

  override evaluate(statement: Statement, environment: Environment): RuntimeValue {
    this.step();
    const value = super.evaluate(statement, environment);
    if (typeof value.value === "string" && value.value.length > this.budget.chars) throw tooLong(this.what, this.budget);
    return value;
  }

  /** Counts one step of work; every TIME_CHECK_STEPS the clock is read. */
  step(): void {
    this.steps += 1;
    if (this.steps % TIME_CHECK_STEPS === 0 && performance.now() > this.deadline)
      throw new PromptRenderRefused(`${this.what} ran past its time budget of ${this.budget.milliseconds.toLocaleString("en-US")} ms (${this.steps.toLocaleString("en-US")} steps): it was stopped and nothing was sent to the model.`);
  }
}

/** The interpreter's block runner (private in its types): a loop's body, run once per iteration even when empty. */
interface WithBlocks {
  evaluateBlock: (statements: unknown, environment: Environment) => RuntimeValue;
}

function budgetedInterpreter(env: Environment, budget: RenderBudget, what: string): BudgetedInterpreter {
  const interpreter = withJinja2Behaviours(new BudgetedInterpreter(env, performance.now() + budget.milliseconds, budget, what));
  // An empty loop body evaluates nothing: each iteration is counted where its block runs.
  const blocks = interpreter as unknown as Partial<WithBlocks>;
  if (typeof blocks.evaluateBlock !== "function") return interpreter;
  const evaluateBlock = blocks.evaluateBlock.bind(interpreter);
  blocks.evaluateBlock = (statements, environment) => {
    interpreter.step();
    return evaluateBlock(statements, environment);
  };
  return interpreter;
}

function tooLong(what: string, budget: RenderBudget): PromptRenderRefused {
  return new PromptRenderRefused(`${what} made a text longer than its bound of ${budget.chars.toLocaleString("en-US")} characters: it was stopped and nothing was sent to the model.`);
}

/** `template` rendered with `items`, within `budget`; `what` names the template in a refusal. */
export function renderWithinBudget(template: ParsedTemplate, items: Record<string, unknown>, budget: RenderBudget, what: string): string {
  const env = new Environment();
  // The globals @huggingface/jinja's Template.render sets (its setupGlobals), range bounded.
  const globals: Record<string, unknown> = {
    false: false,
    true: true,
    none: null,
    raise_exception: (message: unknown) => {
      throw new Error(String(message));
    },
    range: (start: number, stop?: number, step = 1) => boundedRange(start, stop, step, budget, what),
    strftime_now: (format: string) => strftime(new Date(), format),
    True: true,
    False: false,
    None: null,
    ...items,
  };
  for (const [name, value] of Object.entries(globals)) env.set(name, value);
  let output: unknown;
  try {
    output = budgetedInterpreter(env, budget, what).run(template.parsed).value;
  } catch (error) {
    // A text past V8's own string limit is the same refusal.
    if (error instanceof RangeError && /Invalid string length/.test(error.message)) throw tooLong(what, budget);
    throw error;
  }
  const text = String(output);
  if (text.length > budget.chars) throw tooLong(what, budget);
  return text;
}

function boundedRange(start: number, stop: number | undefined, step: number, budget: RenderBudget, what: string): number[] {
  if (stop === undefined) [start, stop] = [0, start];
  if (step === 0) throw new Error("range() step must not be zero");
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (!Number.isFinite(count) || count > budget.rangeItems)
    throw new PromptRenderRefused(`${what} asked for range() of ${Number.isFinite(count) ? count.toLocaleString("en-US") : "endless"} items, past its bound of ${budget.rangeItems.toLocaleString("en-US")}: it was stopped and nothing was sent to the model.`);
  const items: number[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) items.push(i);
  return items;
}

/** @huggingface/jinja's strftime_now formats (%Y %m %d %b %B %H %M %%), as it writes them. */
function strftime(date: Date, format: string): string {
  const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
  return format.replace(/%[YmdbBHM%]/g, (token) => {
    switch (token) {
      case "%Y":
        return String(date.getFullYear());
      case "%m":
        return pad2(date.getMonth() + 1);
      case "%d":
        return pad2(date.getDate());
      case "%b":
        return new Intl.DateTimeFormat(undefined, { month: "short" }).format(date);
      case "%B":
        return new Intl.DateTimeFormat(undefined, { month: "long" }).format(date);
      case "%H":
        return pad2(date.getHours());
      case "%M":
        return pad2(date.getMinutes());
      default:
        return "%";
    }
  });
}
