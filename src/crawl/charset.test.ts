import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { charsetFromContentType, decodeBody, decodePage, sniffDeclaredCharset } from './charset.ts';

describe('decodeBody', () => {
  test('uses the Content-Type charset, quoted or not', () => {
    assert.equal(charsetFromContentType('text/html; charset="ISO-8859-2"'), 'ISO-8859-2');
    assert.equal(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html;charset=windows-1252'), 'café');
  });

  test('reads UTF-16 by its byte order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    assert.equal(decodeBody(le, 'text/html; charset=utf-8'), 'hé');
  });

  test('drops NUL characters, in UTF-8 as in UTF-16', () => {
    assert.equal(decodeBody(Buffer.from('<p>a\u0000b\u0000</p>'), 'text/html'), '<p>ab</p>');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('h\u0000é', 'utf16le')]);
    assert.equal(decodeBody(le, null), 'hé');
  });

  test('reads the encoding of an XML declaration', () => {
    const xml = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><loc>'), Buffer.from([0xe9]), Buffer.from('</loc>')]);
    assert.equal(sniffDeclaredCharset(xml), 'ISO-8859-1');
    assert.equal(decodeBody(xml, 'application/xml'), '<?xml version="1.0" encoding="ISO-8859-1"?><loc>é</loc>');
  });

  test('ignores a <meta> beyond the first 2 KB and a <meta> claiming UTF-16', () => {
    const late = Buffer.concat([Buffer.from(' '.repeat(3000)), Buffer.from('<meta charset="windows-1252">')]);
    assert.equal(sniffDeclaredCharset(late), null);
    assert.equal(sniffDeclaredCharset(Buffer.from('<meta charset="utf-16">')), 'utf-8');
  });

  test('falls back to UTF-8 for an unknown label', () => {
    assert.equal(decodeBody(Buffer.from('héllo'), 'text/html; charset=no-such-charset'), 'héllo');
  });
});

describe('decodePage', () => {
  test("tells when the body is its text's UTF-8 byte for byte", () => {
    const utf8 = Buffer.from('<p>Übersicht — café</p>');
    assert.deepEqual({ ...decodePage(utf8, 'text/html; charset=utf-8') }, { text: '<p>Übersicht — café</p>', bytesAreUtf8Text: true });
    assert.equal(decodePage(utf8, null).bytesAreUtf8Text, true);
    // A BOM, a NUL or an invalid byte is not in the text; a Latin-1 page's bytes are not its text's UTF-8.
    assert.equal(decodePage(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), null).bytesAreUtf8Text, false);
    assert.equal(decodePage(Buffer.from('a\u0000b'), 'text/html; charset=utf-8').bytesAreUtf8Text, false);
    assert.equal(decodePage(Buffer.from([0x61, 0xff, 0x62]), 'text/html; charset=utf-8').bytesAreUtf8Text, false);
    assert.equal(decodePage(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=iso-8859-1').bytesAreUtf8Text, false);
  });
});
