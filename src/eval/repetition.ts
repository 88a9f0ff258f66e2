// Degenerate repetition at the end of a reply: its last characters are one block written over and
// over (a tiny model stuck in a loop at temperature 0). Only the tail is looked at, a bounded
// amount of work per check whatever the reply's length, so checking after every chunk keeps a
// stream's work linear in its output.

export interface RepetitionRule {
  /** The longest block looked for, in characters. */
  maxBlockChars: number;
  /** How many copies of the block, one after the other, make a loop. */
  minCopies: number;
  /** How many characters the copies must cover together (a short block must repeat more often). */
  minChars: number;
}

/**
 * What the eval stops: a block of up to 100 characters written at least 4 times in a row, over at
 * least 200 characters. A Markdown rule or code indentation is far shorter; a list whose lines
 * differ (numbers counting up) is not one block repeated.
 */
export const DEGENERATE_REPETITION: RepetitionRule = { maxBlockChars: 100, minCopies: 4, minChars: 200 };

export interface Repetition {
  /** The repeated block (its last full copy). */
  block: string;
  /** Whole copies at the end of the text. */
  copies: number;
  /** Characters the copies cover. */
  chars: number;
}

/** The shortest block that the end of `text` repeats by the rule, or undefined. */
export function repetitionAtEnd(text: string, rule: RepetitionRule = DEGENERATE_REPETITION): Repetition | undefined {
  const end = text.length;
  for (let block = 1; block <= rule.maxBlockChars; block++) {
    const needed = Math.max(block * rule.minCopies, rule.minChars);
    if (needed > end) break;
    // text[i] === text[i - block] for every i in the last `needed - block` characters.
    let i = end - 1;
    const stop = end - needed + block;
    while (i >= stop && text.charCodeAt(i) === text.charCodeAt(i - block)) i--;
    if (i >= stop) continue;
    // How far back the loop goes, for the record.
    while (i - block >= 0 && text.charCodeAt(i) === text.charCodeAt(i - block)) i--;
    const chars = end - 1 - i + block;
    const copies = Math.floor(chars / block);
    return { block: text.slice(end - block), copies, chars: copies * block };
  }
  return undefined;
}
