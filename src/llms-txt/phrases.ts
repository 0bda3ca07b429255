// The words rules match in a page's text, grouped by language: a rule asks for the phrases of the
// page's (or the site's) language and matches none on a page in a language that has no list, where
// an English list would match by accident or miss what it means. A page that does not say its
// language is read as English, as it always was. Structure (classes, repetition across pages,
// templates) says the same in every language and is not here.

export interface Phrases {
  /** A link named only by its place in the reading order: "« previous", "next page", "up". */
  sequenceText: RegExp;
  /** The same as a link's `title`: "previous chapter", "next topic". */
  sequenceTitle: RegExp;
  /** A paragraph that is a byline or a date stamp: "By …", "Posted on …", "Last updated …". */
  byline: RegExp;
  /** A legal or cookie notice: "Copyright …", "All rights reserved", a licence's "Permission is granted to copy…", "We use cookies". */
  legalNotice: RegExp;
  /** Text that is a byline, a date, navigation or a note's label, not a description: "Written by …", "Next", "See also". */
  noise: RegExp;
  /** Link texts that name no part of a page: "More information", "Read more", "here". */
  namesNothing: RegExp;
  /** "…like this:", "…as follows:": a sentence pointing at what follows it. */
  pointsAhead: RegExp;
  /** "See Section 19.9 for more information…", "Refer to the following tutorials…": a pointer elsewhere. */
  pointsElsewhere: RegExp;
  /** "Let’s learn by example.", "Let's get started!": a few words of setting off. */
  setsOff: RegExp;
  /** "This tutorial begins where Tutorial 1 left off.": where the page resumes, not what it covers. */
  resumes: RegExp;
  /** "This allows users to share…", "Otherwise, before reporting a bug…": goes on from the paragraph before. */
  continues: RegExp;
  /** "and asked for help recovering from this situation.": the rest of a sentence an example interrupted. */
  fragment: RegExp;
  /** "Below is a list of all of the modules…": the opening of a list, about its page whatever it names. */
  presentsAList: RegExp;
  /** An index's title: "Index", "General Index", "Global Module Index", "Indices and tables". */
  indexTitle: RegExp;
  /** A title of a page a reader rarely needs first: legal text, release notes, search, credits. */
  secondaryTitle: RegExp;
  /** A contents page's title ("Table of Contents", "Site map"): secondary when the page does list the site. */
  contentsTitle: RegExp;
  /** A title a tool writes for a page that has none: "Untitled", "No title", "Document". */
  placeholderTitle: RegExp;
  /** "Welcome!", "Hello there.": a greeting says nothing of a page or a site. */
  greeting: RegExp;
  /** A short description a theme ships or its author left: "Welcome to our website", "Coming soon", "Default description", "Just another WordPress site". */
  shortPlaceholder: RegExp;
  /** A sentence about the browser or the site's services, not the page: cookies, newsletters, signing in. */
  serviceNotice: RegExp;
  /** A link that only takes the reader back to the top of the page: "Back to top". */
  backToTop: RegExp;
}

const ENGLISH: Phrases = {
  sequenceText: /^[«‹←<\s]*(?:prev|previous|next|up)(?:\s+(?:page|chapter|topic))?[\s»›→>]*$/i,
  sequenceTitle: /^(?:previous|next) (?:chapter|topic|page)$/i,
  byline: /^(?:by|posted|published|updated|written|last (?:updated|modified)|share|tags?|filed under)\b/i,
  legalNotice: /^copyright\b|\ball rights reserved\b|^permission is (?:hereby )?granted\b|\bwe use cookies\b|^(?:distributed|licensed|released) under the\b[^.]*\blicen[cs]e\b|\bdistribution is subject to the\b[^.]*\blicen[cs]e\b/i,
  noise:
    /^(?:by\s+\p{Lu}|written\s+by|authors?\b|posted\b|published\b|last\s+(?:modified|updated?|changed)|this\s+page\s+(?:was\s+)?last|page\s+last|copyright\b|all\s+rights\s+reserved|skip\s+to|jump\s+to|table\s+of\s+contents|contents\b|previous\b|next\b|up\b|home\b|navigation\b|search\b|version\s+\d|(?:changed|new|added)\s+in\s+version\b|deprecated\s+since\b|module\s+authors?:|note:|default:|see\s+also\b|source\s+code:)/iu,
  namesNothing: /^(?:more(?:\s+(?:information|details))?|read\s+more|learn\s+more|click\s+here|here)$/i,
  pointsAhead: /\b(?:like this|as follows|the following|below|using|with|e\.g\.)\s*:$/i,
  pointsElsewhere: /^(?:see\b|refer\s+to\b|for (?:(?:more|additional|further) )?(?:information|details)\b)/i,
  setsOff: /^let[’']s(?:\s+\S+){1,4}[.!]$/i,
  resumes: /\b(?:begins|starts|picks\s+up|continues)\s+where\b.+\bleft\s+off\b/i,
  continues: /^(?:(?:this|that|it)\s+(?:allows?|means|makes|lets|enables|gives|is\s+why|is\s+because|was)\b|(?:otherwise|however|instead|therefore|thus)\b)/i,
  fragment: /^(?:and|but|or|nor|so|yet|where|whereas|which)\s/,
  presentsAList:
    /^(?:below\s+(?:is|are)|here\s+(?:is|are)|the\s+following\s+(?:is|are)|this\s+(?:page|document)\s+(?:is|lists|contains|gives))\b.{0,40}\b(?:list|index|table|overview)\b/i,
  // An index, or one letter's page of it ("General Index: F", "General Index: F – L").
  indexTitle: /^(?:index(?:\s+[–—-]\s+\S+)?|general\s+index|(?:\S+\s+)?module\s+index|\S+\s+index|indices(?:\s+and\s+tables)?)(?::\s+\S+(?:\s+[–—-]\s+\S+)?)?$/i,
  secondaryTitle:
    /^(?:legal\s+notice|copyright|licen[cs]es?(?:\s+and\s+\w+)?|history\s+and\s+licen[cs]e|terms(?:\s+of\s+\w+)?|privacy(?:\s+policy)?|bibliography|glossary\s+[–—-]\s+\S|release\s+notes?(?:\s+.*)?|release\s+\d[\w.]*|changelog|change\s*log|changes\s+(?:in|to)\s+.*|what['’]?s\s+new.*|(?:overview\s+of\s+)?new\s+features\b.*|search(?:\s+page|\s+results)?|about\s+(?:these|the|this)\s+documents?(?:ation)?|dealing\s+with\s+bugs|reporting\s+bugs|contributing(?:\s+(?:to|guide|guidelines)\b.*)?|how\s+to\s+contribute(?:\s+to\b.*)?|migrat(?:e|ing|ion)(?:\s+guide)?\s+(?:from|to)\s+(?:v(?:ersion)?\s*)?\d.*|copyright\s+.*|contributors|authors|credits|acknowledge?ments)$/i,
  contentsTitle: /^(?:(?:.+\s)?contents|site\s*map)$/i,
  placeholderTitle: /^(?:<no title>|no title|untitled(?: document| page)?|document|title)$/i,
  greeting: /^(?:welcome|hello|hi)\b[^.!?]{0,40}[.!?]$/i,
  shortPlaceholder: new RegExp(
    [
      /^welcome to (?:our|my|the|this)\b.{0,20}\b(?:web ?site|site|home ?page|blog|page)\b/,
      /\b(?:default|sample|example|test|dummy|placeholder|meta|page|site|website) description\b/,
      /\bdescription (?:goes )?here\b/,
      /\b(?:enter|add|insert|write|your) (?:a |the |your )?(?:meta |page |site )?description\b/,
      /^(?:welcome!?|coming soon|under construction|untitled|home ?page|home|index|none|todo|tbd|description)\.?$/,
      /^(?:this is (?:a|my|the) )?(?:web ?site|site|page|blog)\.?$/,
      /^powered by \S+$/,
      /^just another wordpress site$/,
    ]
      .map((pattern) => pattern.source)
      .join('|'),
    'i',
  ),
  serviceNotice: /\b(?:cookies?|subscribe|newsletter|sign up|sign in|log in|click here|all rights reserved|copyright|javascript|your browser|advertisement)\b/i,
  backToTop: /^(?:top|back to top|to top|go to top|return to top)$/i,
};

/** Matches nothing: the phrases of a language without a list. */
const NEVER = /(?!)/;

const NONE: Phrases = Object.fromEntries(Object.keys(ENGLISH).map((key) => [key, NEVER])) as unknown as Phrases;

/** The lists by ISO 639-1 code; a language is added by writing its list beside English's. */
const BY_LANGUAGE: Readonly<Record<string, Phrases>> = { en: ENGLISH };

/** The phrases of a language ("en", "en-US", "de"); English when the language is unknown. */
export function phrasesFor(language: string | null | undefined): Phrases {
  if (!language) return ENGLISH;
  return BY_LANGUAGE[language.split(/[-_]/)[0].toLowerCase()] ?? NONE;
}
