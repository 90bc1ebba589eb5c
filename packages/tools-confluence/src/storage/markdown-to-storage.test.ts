import { describe, expect, it } from "vitest";
import { cdata, markdownToStorage } from "./markdown-to-storage.js";
import { parseStorage } from "./parse-storage.js";
import { storageToMarkdown } from "./storage-to-markdown.js";

describe("markdownToStorage", () => {
  it("writes headings, paragraphs and emphasis, escaping text", () => {
    expect(markdownToStorage("# A & B\n\nx < y **bold** *it* ~~gone~~ `a<b>`  \nnext")).toBe(
      "<h1>A &amp; B</h1><p>x &lt; y <strong>bold</strong> <em>it</em> <s>gone</s> <code>a&lt;b&gt;</code><br />next</p>",
    );
  });

  it("writes lists, nested and ordered, and task lists as Confluence tasks", () => {
    expect(markdownToStorage("- one\n  - inner\n- two\n\n3. c\n4. d")).toBe(
      '<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><ol start="3"><li>c</li><li>d</li></ol>',
    );
    expect(markdownToStorage("- [x] done\n- [ ] todo")).toBe(
      "<ac:task-list><ac:task><ac:task-status>complete</ac:task-status><ac:task-body>done</ac:task-body></ac:task>" +
        "<ac:task><ac:task-status>incomplete</ac:task-status><ac:task-body>todo</ac:task-body></ac:task></ac:task-list>",
    );
  });

  it("writes a table, a blockquote and a rule, void elements self-closed", () => {
    expect(markdownToStorage("| a | b |\n| - | - |\n| 1 | 2 |\n\n> q\n\n---")).toBe(
      "<table><tbody><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></tbody></table><blockquote><p>q</p></blockquote><hr />",
    );
  });

  it("writes a fenced block as the code macro, its body in CDATA", () => {
    expect(markdownToStorage("```js\nif (a < b && c) {}\n```")).toBe(
      '<ac:structured-macro ac:name="code" ac:schema-version="1"><ac:parameter ac:name="language">js</ac:parameter>' +
        "<ac:plain-text-body><![CDATA[if (a < b && c) {}]]></ac:plain-text-body></ac:structured-macro>",
    );
  });

  it("splits ]]> in a code body so the CDATA section holds it exactly", () => {
    const code = "a]]>b]]>";
    expect(cdata(code)).toBe("<![CDATA[a]]]]><![CDATA[>b]]]]><![CDATA[>]]>");
    const storage = markdownToStorage(`\`\`\`\n${code}\n\`\`\``);
    expect(storageToMarkdown(storage)).toBe(`\`\`\`\n${code}\n\`\`\``);
  });

  it("writes links, page links as ac:link, and drops a javascript: href but keeps its text", () => {
    expect(
      markdownToStorage(
        '[site](https://example.com/?a=1&b="2") [Runbook](confluence-page:ENG/Run%20book) [x](javascript:alert(1))',
      ),
    ).toBe(
      '<p><a href="https://example.com/?a=1&amp;b=&quot;2&quot;">site</a> ' +
        '<ac:link><ri:page ri:space-key="ENG" ri:content-title="Run book" /><ac:plain-text-link-body><![CDATA[Runbook]]></ac:plain-text-link-body></ac:link> x</p>',
    );
  });

  it("writes raw HTML as text, never as markup", () => {
    expect(markdownToStorage('<ac:structured-macro ac:name="html"><script>x</script>\n\nok <b>b</b>')).toBe(
      '<p>&lt;ac:structured-macro ac:name="html"&gt;&lt;script&gt;x&lt;/script&gt;</p><p>ok &lt;b&gt;b&lt;/b&gt;</p>',
    );
  });

  it("produces well-formed XHTML a storage reader reads back to the same markdown", () => {
    const markdown =
      "## Plan\n\nShip **it** & [docs](https://example.com)\n\n- a\n- b\n\n| k | v |\n| --- | --- |\n| x | y |\n\n```sh\necho ']]>' <done>\n```";
    const storage = markdownToStorage(markdown);
    expect(() => parseStorage(storage)).not.toThrow();
    expect(storageToMarkdown(storage)).toBe(
      "## Plan\n\nShip **it** & [docs](<https://example.com>)\n\n- a\n- b\n\n| k | v |\n| --- | --- |\n| x | y |\n\n```sh\necho ']]>' <done>\n```",
    );
  });

  it("refuses markdown past its bound before parsing", () => {
    expect(() => markdownToStorage("x".repeat(500_001))).toThrow(RangeError);
  });

  it("refuses, before parsing, nesting and emphasis runs the parser would take too deep or too long on", () => {
    expect(() => markdownToStorage(`${"> ".repeat(33)}a`)).toThrow(/nested more than 32 deep/);
    expect(() => markdownToStorage(`${"- ".repeat(33)}a`)).toThrow(/nested more than 32 deep/);
    expect(() => markdownToStorage("*a _b ".repeat(1001))).toThrow(/more than 2000 emphasis marks/);
    expect(markdownToStorage(`${"> ".repeat(3)}a`)).toBe(
      "<blockquote><blockquote><blockquote><p>a</p></blockquote></blockquote></blockquote>",
    );
    // A fence's stars are code, not emphasis.
    expect(markdownToStorage(`\`\`\`\n${"*".repeat(3000)}\n\`\`\``)).toContain("*".repeat(3000));
  });
});
