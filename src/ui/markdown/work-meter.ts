// Counts the parser's units of work (characters and lines visited, delimiters passed over), so
// tests can check that the work grows linearly with the input without timing anything.
export interface WorkMeter {
  steps: number;
}

export function countWork(meter: WorkMeter | undefined, steps: number): void {
  if (meter) meter.steps += steps;
}
