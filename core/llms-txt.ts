/** Building llms.txt and llms-full.txt (README "llms.txt") from the pages read, in the map's order. */

export interface DescribedPage {
  url: string;
  title: string;
  description: string;
  markdown: string;
}

/** `# Site` / `> what the first page is about` / one `- [title](url): description` line per page. */
export function llmsTxt(site: string, pages: DescribedPage[]): string {
  const head = [`# ${new URL(site).hostname}`, ''];
  if (pages[0]) head.push(`> ${pages[0].description}`, '');
  return [...head, ...pages.map((p) => `- [${p.title.replace(/[[\]]/g, '')}](${p.url}): ${p.description}`)].join('\n') + '\n';
}

/** Every page's markdown under its title and URL. */
export function llmsFullTxt(site: string, pages: DescribedPage[]): string {
  return [`# ${new URL(site).hostname}`, '', ...pages.flatMap((p) => [`## ${p.title}`, '', `Source: ${p.url}`, '', p.markdown.trim(), ''])].join('\n');
}
