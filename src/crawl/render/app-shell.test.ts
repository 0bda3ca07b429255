import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksLikeAppShell } from './app-shell.ts';

test('an empty mount point with a script bundle is an application shell', () => {
  for (const mount of ['<div id="root"></div>', '<div id="app"> </div>', '<div id="__next"></div>', '<app-root ng-version="17"></app-root>']) {
    const html = `<!doctype html><html><head><title>App</title><script src="/assets/index-4f2a.js" type="module"></script></head><body>${mount}<noscript>You need to enable JavaScript to run this app.</noscript></body></html>`;
    assert.equal(looksLikeAppShell(html), true, mount);
  }
});

test('a page with its text, or without any script, is not a shell', () => {
  const text = '<p>' + 'Tides are forecast from gauge data. '.repeat(20) + '</p>';
  assert.equal(looksLikeAppShell(`<html><body><div id="root">${text}</div><script src="/app.js"></script></body></html>`), false, 'server-rendered into its mount point');
  assert.equal(looksLikeAppShell('<html><body><div id="root"></div></body></html>'), false, 'no script');
  const links = ['/a', '/b', '/c', '/d'].map((href) => `<a href="${href}">${href}</a>`).join('');
  assert.equal(looksLikeAppShell(`<html><body><nav>${links}</nav><script>track()</script></body></html>`), false, 'a small page with its links');
  assert.equal(looksLikeAppShell(`<html><body><p>Coming soon.</p><script src="/analytics.js"></script></body></html>`), true, 'little text, a script, no links');
});
