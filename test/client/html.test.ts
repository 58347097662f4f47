/** An HTML page as a reader sees it: its title and text, no markup, scripts or styles. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeEntities, looksLikeHtml, readHtml } from '../../client/webview/model/html';

const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>500 Internal Server Error &mdash; LMS</title>
<style>body { color: red } </style><script>var token = "not text";</script></head>
<body><h1>Something went wrong</h1><p>We&#39;re sorry: the request <b>could not</b> be completed.</p>
<!-- a comment --><ul><li>Try again</li><li>Contact &lt;support&gt;</li></ul><noscript>enable js</noscript></body></html>`;

test('an HTML page reads as its title and text, one block a line', () => {
  const page = readHtml(PAGE);
  assert.equal(page.title, '500 Internal Server Error — LMS');
  assert.equal(
    page.text,
    "Something went wrong\nWe're sorry: the request could not be completed.\nTry again\nContact <support>",
  );
  assert.ok(!page.text.includes('not text') && !page.text.includes('color') && !page.text.includes('comment'));
});

test('pages of odd shapes: no title, unclosed tags, a title in the body, a huge page', () => {
  assert.deepEqual(readHtml('plain words'), { title: undefined, text: 'plain words' });
  assert.equal(readHtml('<html><body><p>open').text, 'open');
  assert.equal(readHtml('<title>T</title>text').title, 'T');
  assert.equal(readHtml('<script>never closed').text, '');
  assert.equal(readHtml('<a href="x>y">link</a').text, 'y">link');
  const huge = `<title>Big</title>${'<div>line</div>'.repeat(300_000)}`;
  const page = readHtml(huge);
  assert.equal(page.title, 'Big');
  assert.ok(page.text.startsWith('line\nline'));
});

test('entities and how a page is recognised', () => {
  assert.equal(decodeEntities('&amp;&lt;&#65;&#x42;&nbsp;&unknown;&#0;'), '&<AB &unknown;&#0;');
  assert.equal(looksLikeHtml('text/html; charset=utf-8', ''), true);
  assert.equal(looksLikeHtml(undefined, '  <!DOCTYPE html><html>'), true);
  assert.equal(looksLikeHtml('text/plain', 'just text'), false);
  assert.equal(looksLikeHtml('application/json', '{"html": "<html>"}'), false);
});
