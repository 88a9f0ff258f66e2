// Every link in README.md and docs/ leads somewhere: a file of the repository that exists, and a
// heading or `<a id>` of that page where the link names one. A page moved or a heading renamed
// fails here, not in a reader's browser. (Addresses of the app itself, `/?…`, are opened in the
// built page by e2e/readme-urls.spec.ts.)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(dirname(new URL(import.meta.url).pathname), "..");
const pages = ["README.md", "packages/toolcall-middleware/README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** A page's text outside fenced code blocks (a link in an example is not a link). */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(page: string): Set<string> {
  const text = prose(readFileSync(join(root, page), "utf8"));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = headingAnchor(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(id!);
  return anchors;
}

/** Markdown links and images: `[text](target)` and `![alt](target)`. */
function linksOf(page: string): string[] {
  const text = prose(readFileSync(join(root, page), "utf8"));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe("links in the README and docs", () => {
  it("finds the pages and their links", () => {
    expect(pages).toContain("docs/README.md");
    expect(pages.length).toBeGreaterThan(10);
    expect(linksOf("README.md").length).toBeGreaterThan(10);
  });

  for (const page of pages) {
    it(`every link in ${page} resolves`, () => {
      const broken: string[] = [];
      for (const link of linksOf(page)) {
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path === "" ? page : relative(root, join(root, dirname(page), decodeURIComponent(path)));
        if (target.startsWith("..") || !existsSync(join(root, target))) {
          broken.push(`${link}: no file ${target}`);
          continue;
        }
        if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${target}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
