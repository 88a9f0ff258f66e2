// Turns a page into the text a reader sees: no scripts, styles or markup, whitespace collapsed.
// In the browser DOMParser does the reading; elsewhere (Node tests, a worker) a small tag
// stripper gives the same kind of result for ordinary pages.

const SKIPPED_ELEMENTS = ["script", "style", "noscript", "template", "svg", "head", "iframe", "object"];

export interface ReadablePage {
  title?: string;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/** Collapses runs of spaces within lines and keeps at most one blank line between blocks. */
export function collapseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[\t \u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const BLOCK_TAGS = /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|nav|main|aside|blockquote|pre|hr|dd|dt|dl|figure|figcaption)\b[^>]*>/gi;

export function stripTags(html: string): ReadablePage {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  let body = html.replace(/<!--[\s\S]*?-->/g, " ");
  for (const tag of [...SKIPPED_ELEMENTS, "title"]) body = body.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, "gi"), " ");
  body = body.replace(BLOCK_TAGS, "\n").replace(/<[^>]*>/g, " ");
  const text = collapseWhitespace(decodeEntities(body));
  const cleanTitle = title === undefined ? undefined : collapseWhitespace(decodeEntities(title.replace(/<[^>]*>/g, "")));
  return cleanTitle ? { title: cleanTitle, text } : { text };
}

function readWithDomParser(html: string): ReadablePage {
  const document = new DOMParser().parseFromString(html, "text/html");
  for (const element of document.querySelectorAll(SKIPPED_ELEMENTS.join(","))) element.remove();
  // innerText would need layout; textContent loses line breaks, so mark blocks first.
  for (const element of document.body?.querySelectorAll("p,div,br,li,h1,h2,h3,h4,h5,h6,tr,section,article,blockquote,pre,hr,dt,dd") ?? []) {
    element.append(document.createTextNode("\n"));
  }
  const text = collapseWhitespace(document.body?.textContent ?? "");
  const title = collapseWhitespace(document.title ?? "");
  return title ? { title, text } : { text };
}

export function htmlToReadableText(html: string): ReadablePage {
  return typeof DOMParser === "function" ? readWithDomParser(html) : stripTags(html);
}
