// What the DOM pass drops or counts, told by each element's own marks: its tag, role, ARIA label,
// id and classes, the parts of a simple CSS selector (`nav`, `[role="navigation"]`, `a.headerlink`).
// Each element's attributes are read once and tested against sets, in one walk of the page:
// css-select (linkedom's querySelectorAll) tested each of some twenty selectors against every
// element of the page in turn, a fifth of a page's extraction (docs/decisions/page-reading.md).

/** A group of simple selectors: an element matches the group when it matches one of them. */
export interface ElementMarks {
  tags?: readonly string[];
  roles?: readonly string[];
  ariaLabels?: readonly string[];
  ids?: readonly string[];
  classes?: readonly string[];
  /** a class on an element of this tag only (`a.headerlink`) */
  tagClasses?: ReadonlyArray<readonly [tag: string, className: string]>;
  /** `[aria-hidden="true"]` */
  ariaHidden?: boolean;
}

export type ElementTest = (element: Element) => boolean;

/** The test for a group of marks, or for several groups at once (an element matches one of them). */
export function markTest(...groups: ElementMarks[]): ElementTest {
  const set = (pick: (marks: ElementMarks) => readonly string[] | undefined) => new Set(groups.flatMap((marks) => pick(marks) ?? []));
  const tags = set((marks) => marks.tags);
  const roles = set((marks) => marks.roles);
  const ariaLabels = set((marks) => marks.ariaLabels);
  const ids = set((marks) => marks.ids);
  const classes = set((marks) => marks.classes);
  const tagClasses = set((marks) => marks.tagClasses?.map(([tag, className]) => `${tag}.${className}`));
  const ariaHidden = groups.some((marks) => marks.ariaHidden);
  const hasClassTest = classes.size > 0 || tagClasses.size > 0;
  return (element) => {
    const tag = element.localName;
    if (tags.has(tag)) return true;
    if (roles.size > 0 && roles.has(element.getAttribute('role') ?? '')) return true;
    if (ariaLabels.size > 0 && ariaLabels.has(element.getAttribute('aria-label') ?? '')) return true;
    if (ids.size > 0 && ids.has(element.getAttribute('id') ?? '')) return true;
    if (ariaHidden && element.getAttribute('aria-hidden') === 'true') return true;
    if (!hasClassTest) return false;
    // The class list, not the attribute: linkedom keeps the classes as a set, and joins them into a new string for the attribute.
    if (!element.hasAttribute('class')) return false;
    for (const className of element.classList) {
      if (classes.has(className) || tagClasses.has(`${tag}.${className}`)) return true;
    }
    return false;
  };
}

const SHOW_ELEMENT = 1;

/** The elements within `root`, in document order: those its querySelectorAll would test. */
export function* elementsOf(root: Document | Element): Generator<Element> {
  const isDocument = 'documentElement' in root;
  // linkedom's walker fails on a document without an element (an empty file).
  if (isDocument && !root.documentElement) return;
  const walker = (isDocument ? root : root.ownerDocument).createTreeWalker(root, SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) yield node as Element;
}

/** Whether an ancestor of `element` passes `test`. */
export function hasAncestor(element: Element, test: ElementTest): boolean {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) if (test(parent)) return true;
  return false;
}
