/**
 * An llms.txt shown as an outline: its title and summary, a table of contents of its sections,
 * and each section's links with their descriptions. The file is read as the llms.txt format
 * writes it (`# title`, `> summary`, `## section`, `- [title](url): description`); any other
 * line is kept as the section's text.
 */
import { ErrorMessage, useLoad } from './ui.tsx';

interface OutlineLink {
  title: string;
  url: string;
  description: string;
}
interface OutlineSection {
  title: string;
  links: OutlineLink[];
  text: string[];
}
export interface Outline {
  title: string;
  summary: string;
  /** the lines between the summary and the first section */
  intro: string[];
  sections: OutlineSection[];
}

const LINK = /^[-*]\s+\[([^\]]*)\]\(([^)\s]+)\)(?::\s*(.*))?$/;

export function parseLlmsTxt(text: string): Outline {
  const outline: Outline = { title: '', summary: '', intro: [], sections: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const section = outline.sections.at(-1);
    const link = LINK.exec(line);
    if (line.startsWith('# ') && !outline.title) outline.title = line.slice(2).trim();
    else if (line.startsWith('> ') && !outline.summary && !section) outline.summary = line.slice(2).trim();
    else if (line.startsWith('## ')) outline.sections.push({ title: line.slice(3).trim(), links: [], text: [] });
    else if (link && section) section.links.push({ title: link[1]!, url: link[2]!, description: link[3]?.trim() ?? '' });
    else if (section) section.text.push(line);
    else outline.intro.push(line);
  }
  return outline;
}

const sectionId = (index: number) => `outline-section-${index + 1}`;

export function LlmsOutline({ outline }: { outline: Outline }) {
  return (
    <div class="outline">
      <h3>{outline.title || 'Untitled'}</h3>
      {outline.summary ? <blockquote>{outline.summary}</blockquote> : null}
      {outline.intro.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      {outline.sections.length ? (
        <nav aria-label="Sections of the llms.txt">
          <ol class="toc">
            {outline.sections.map((section, i) => (
              <li key={i}>
                <a href={`#${sectionId(i)}`}>{section.title}</a> <span class="muted">({section.links.length})</span>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {outline.sections.map((section, i) => (
        <section key={i} id={sectionId(i)} aria-labelledby={`${sectionId(i)}-title`}>
          <h4 id={`${sectionId(i)}-title`}>{section.title}</h4>
          {section.text.map((line, j) => (
            <p key={j}>{line}</p>
          ))}
          <ul class="plain outline-links">
            {section.links.map((link, j) => (
              <li key={j}>
                <a href={link.url} target="_blank" rel="noopener">
                  {link.title || link.url}
                </a>
                {link.description ? <span class="muted">: {link.description}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** The site's llms.txt, fetched and shown as an outline. */
export function LlmsPreview({ fileUrl, version }: { fileUrl: string; version: string }) {
  const file = useLoad(async () => {
    const response = await fetch(fileUrl, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`The llms.txt could not be loaded (${response.status}).`);
    return parseLlmsTxt(await response.text());
  }, [fileUrl, version]);
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview of llms.txt</h2>
      <ErrorMessage error={file.error} />
      {file.data ? <LlmsOutline outline={file.data} /> : file.loading ? <p>Loading…</p> : null}
    </section>
  );
}
