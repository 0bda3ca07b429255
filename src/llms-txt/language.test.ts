import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { languageOf, readsAsEnglish } from './language.ts';
import { readPageFacts } from './page-facts.ts';

describe('readsAsEnglish', () => {
  test('English prose and short texts read as English; filler in another language does not', () => {
    assert.equal(readsAsEnglish('Acme is a general-purpose library and toolchain for maintaining robust, optimal and reusable shelves.'), true);
    assert.equal(readsAsEnglish('Acme makes shelves out of widgets. They snap together. Buy some today.'), true);
    assert.equal(readsAsEnglish('mapState, mapGetters, mapActions'), true, 'names only: not judged');
    assert.equal(readsAsEnglish('Est in vagis et Pittheus tu arge accipiter regia iram vocatur nurus.'), false);
    assert.equal(readsAsEnglish('Idmoniae ripis, at aves, ali missa adest, ut et autem, et ab?'), false);
    assert.equal(readsAsEnglish('Ea furtique risere fratres edidit terrae magis. Colla tam mihi tenebat: miseram excita suadent es pecudes iam.'), false);
  });
});

describe('languageOf', () => {
  const at = (url: string, lang = '') => languageOf(readPageFacts(`<html${lang}><head><title>Page</title></head><body><p>Text.</p></body></html>`, url));

  test("a page's language from its URL (a first folder, or a folder deeper with its region), else its <html lang>", () => {
    assert.equal(at('https://acme.dev/de/guide.html'), 'de');
    assert.equal(at('https://acme.dev/handbook/html/fr-FR/index.html'), 'fr');
    assert.equal(at('https://acme.dev/guide.html.de'), 'de');
    assert.equal(at('https://acme.dev/guide.html', ' lang="pt-BR"'), 'pt');
  });

  test('a bare two letters deeper in the path is a name, not a language', () => {
    assert.equal(at('https://acme.dev/api/go/index.html'), null);
    assert.equal(at('https://acme.dev/api/it/index.html'), null);
  });
});
