// The CommonMark spec's examples with the reference implementation's HTML for each, as JSON on
// standard output: [{number, section, markdown, html}]. Run with NODE_PATH at the folder
// ensure_commonmark (tools.sh) prints. The spec shows tabs as "→"; they are tabs again here.
'use strict';
const spec = require('commonmark-spec');
const commonmark = require('commonmark');

const reader = new commonmark.Parser();
const writer = new commonmark.HtmlRenderer();
const tabs = (s) => s.replace(/→/g, '\t');
const examples = spec.tests.map((t) => {
  const markdown = tabs(t.markdown);
  return { number: t.number, section: t.section, markdown, html: writer.render(reader.parse(markdown)) };
});
process.stdout.write(JSON.stringify(examples));
