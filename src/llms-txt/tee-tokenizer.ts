// One htmlparser2 tokenizer for two readers: the page's facts and the crawler's link scan read a
// page in the same pass (see FactsOptions.alsoTokens).
import { Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';

/**
 * A tokenizer that hands each token to its parser, then to the parser options' `alsoTokens`. One
 * class for every page (the parser constructs it with its own options): a class per page would
 * give each tokenizer a shape of its own, and V8 would stop optimising the tokenizer's code.
 */
export class TeeTokenizer extends Tokenizer {
  constructor(options: ConstructorParameters<typeof Tokenizer>[0] & { alsoTokens: TokenizerCallbacks }, parser: TokenizerCallbacks) {
    super(options, new TeeCallbacks(parser, options.alsoTokens));
  }
}

class TeeCallbacks implements TokenizerCallbacks {
  private readonly first: TokenizerCallbacks;
  private readonly second: TokenizerCallbacks;

  constructor(first: TokenizerCallbacks, second: TokenizerCallbacks) {
    this.first = first;
    this.second = second;
  }

  onattribdata(start: number, end: number): void {
    this.first.onattribdata(start, end);
    this.second.onattribdata(start, end);
  }
  onattribentity(codepoint: number): void {
    this.first.onattribentity(codepoint);
    this.second.onattribentity(codepoint);
  }
  onattribend(quote: QuoteType, end: number): void {
    this.first.onattribend(quote, end);
    this.second.onattribend(quote, end);
  }
  onattribname(start: number, end: number): void {
    this.first.onattribname(start, end);
    this.second.onattribname(start, end);
  }
  oncdata(start: number, end: number, offset: number): void {
    this.first.oncdata(start, end, offset);
    this.second.oncdata(start, end, offset);
  }
  onclosetag(start: number, end: number): void {
    this.first.onclosetag(start, end);
    this.second.onclosetag(start, end);
  }
  oncomment(start: number, end: number, offset: number): void {
    this.first.oncomment(start, end, offset);
    this.second.oncomment(start, end, offset);
  }
  ondeclaration(start: number, end: number): void {
    this.first.ondeclaration(start, end);
    this.second.ondeclaration(start, end);
  }
  onend(): void {
    this.first.onend();
    this.second.onend();
  }
  onopentagend(end: number): void {
    this.first.onopentagend(end);
    this.second.onopentagend(end);
  }
  onopentagname(start: number, end: number): void {
    this.first.onopentagname(start, end);
    this.second.onopentagname(start, end);
  }
  onprocessinginstruction(start: number, end: number): void {
    this.first.onprocessinginstruction(start, end);
    this.second.onprocessinginstruction(start, end);
  }
  onselfclosingtag(end: number): void {
    this.first.onselfclosingtag(end);
    this.second.onselfclosingtag(end);
  }
  ontext(start: number, end: number): void {
    this.first.ontext(start, end);
    this.second.ontext(start, end);
  }
  ontextentity(codepoint: number, end: number): void {
    this.first.ontextentity(codepoint, end);
    this.second.ontextentity(codepoint, end);
  }
  isInForeignContext(): boolean {
    return this.first.isInForeignContext?.() ?? false;
  }
}
