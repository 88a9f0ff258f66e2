// Text put into a regular expression as itself: markers, tag names and tokens that hold `|`, `[`,
// `.` and the like are matched literally.

/** `text` with every character a regular expression reads as syntax escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
