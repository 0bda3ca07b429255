// What a page's <meta> and <link> tags say of it (its description, titles, generator, canonical URL,
// refresh target, language alternates), read into its facts as the parser meets them.
import type { MetaTag } from './metadata.ts';
import type { PageFacts } from './page-facts-model.ts';
import { resolveHref } from './pending-link.ts';
import { candidateText } from './text.ts';

export function readMeta(facts: PageFacts, attrs: Record<string, string>, base: string): void {
  facts.head.metaTags.push(attrs as MetaTag);
  const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
  const content = candidateText(attrs.content);
  if ((attrs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
    const match = /url\s*=\s*['"]?([^'"]+)/i.exec(attrs.content ?? '');
    if (match) facts.refresh = resolveHref(match[1], base);
    return;
  }
  if (!content) return;
  if (key === 'description' && !facts.metaDescription) facts.metaDescription = content;
  else if (key === 'og:description' && !facts.metaDescription) facts.metaDescription = content;
  else if (key === 'og:title') facts.ogTitle = content;
  else if (key === 'og:site_name') facts.siteName = content;
  else if (key === 'generator') facts.generator ??= content;
}

export function readLinkTag(facts: PageFacts, attrs: Record<string, string>, base: string): void {
  const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
  if (!attrs.href) return;
  if (rel.includes('canonical')) facts.canonical = resolveHref(attrs.href, base);
  else if (rel.includes('alternate') && attrs.hreflang) {
    const target = resolveHref(attrs.href, base);
    if (target && target !== facts.url) facts.alternates.push(target);
  }
}
