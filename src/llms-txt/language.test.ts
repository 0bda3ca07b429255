import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readsAsEnglish } from './language.ts';

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
