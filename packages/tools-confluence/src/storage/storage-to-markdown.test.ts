import { describe, expect, it } from "vitest";
import { storageToMarkdown } from "./storage-to-markdown.js";

describe("storageToMarkdown", () => {
  it("reads headings, paragraphs, emphasis, HTML entities and line breaks", () => {
    const storage =
      "<h1>Release &amp; plan</h1><p>Ship&nbsp;it <strong>now</strong>, <em>not</em> <s>later</s> &ldquo;ok&rdquo;<br/>next line</p><hr/><h3>Notes</h3>";
    expect(storageToMarkdown(storage)).toBe(
      "# Release & plan\n\nShip it **now**, *not* ~~later~~ “ok”\\\nnext line\n\n---\n\n### Notes",
    );
  });

  it("escapes markdown's own characters in text, so text stays text", () => {
    expect(storageToMarkdown("<p>a*b_c [x] `y` &lt;z&gt;</p>")).toBe("a\\*b\\_c \\[x\\] \\`y\\` \\<z\\>");
  });

  it("reads nested lists and task lists", () => {
    const storage =
      "<ul><li>one<ul><li>one.a</li></ul></li><li><p>two</p></li></ul><ol><li>first</li><li>second</li></ol>" +
      "<ac:task-list><ac:task><ac:task-id>1</ac:task-id><ac:task-status>complete</ac:task-status><ac:task-body>done</ac:task-body></ac:task>" +
      "<ac:task><ac:task-id>2</ac:task-id><ac:task-status>incomplete</ac:task-status><ac:task-body>todo</ac:task-body></ac:task></ac:task-list>";
    expect(storageToMarkdown(storage)).toBe(
      "- one\n  - one.a\n- two\n\n1. first\n2. second\n\n- [x] done\n- [ ] todo",
    );
  });

  it("reads a table as a GFM table, with pipes in cells escaped", () => {
    const storage =
      "<table><tbody><tr><th>Name</th><th>Value</th></tr><tr><td><p>a|b</p></td><td>1</td></tr><tr><td>c</td></tr></tbody></table>";
    expect(storageToMarkdown(storage)).toBe("| Name | Value |\n| --- | --- |\n| a\\|b | 1 |\n| c |  |");
  });

  it("reads the code macro as a fenced block in its language, its CDATA body kept exactly", () => {
    const storage =
      '<ac:structured-macro ac:name="code" ac:schema-version="1"><ac:parameter ac:name="language">typescript</ac:parameter>' +
      '<ac:plain-text-body><![CDATA[const ok = 1 < 2 && "<p>";\nconst s = `x`;]]></ac:plain-text-body></ac:structured-macro>';
    expect(storageToMarkdown(storage)).toBe('```typescript\nconst ok = 1 < 2 && "<p>";\nconst s = `x`;\n```');
  });

  it("fences a code body holding backticks with a longer fence", () => {
    const storage =
      '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[```\ninner\n```]]></ac:plain-text-body></ac:structured-macro>';
    expect(storageToMarkdown(storage)).toBe("````\n```\ninner\n```\n````");
  });

  it("reads links: a URL, a page by title (and space), a user, an attachment", () => {
    const storage =
      '<p><a href="https://example.com/a b">site</a> ' +
      '<ac:link><ri:page ri:content-title="Other page" /><ac:plain-text-link-body><![CDATA[see other]]></ac:plain-text-link-body></ac:link> ' +
      '<ac:link><ri:page ri:space-key="ENG" ri:content-title="Runbook" /></ac:link> ' +
      '<ac:link><ri:user ri:account-id="5b10ac8d82e05b22cc7d4ef5" /></ac:link> ' +
      '<ac:link><ri:attachment ri:filename="plan.pdf" /></ac:link></p>';
    expect(storageToMarkdown(storage)).toBe(
      "[site](<https://example.com/a%20b>) [see other](confluence-page:Other%20page) [Runbook](confluence-page:ENG/Runbook) @user:5b10ac8d82e05b22cc7d4ef5 attachment plan.pdf",
    );
  });

  it("reads a blockquote and a panel as quotes", () => {
    const storage =
      "<blockquote><p>quoted</p><p>twice</p></blockquote>" +
      '<ac:structured-macro ac:name="warning"><ac:parameter ac:name="title">Careful</ac:parameter><ac:rich-text-body><p>hot</p></ac:rich-text-body></ac:structured-macro>';
    expect(storageToMarkdown(storage)).toBe("> quoted\n>\n> twice\n\n> **Warning: Careful**\n>\n> hot");
  });

  it("keeps an unknown macro's text and names it, and names one with no text", () => {
    const storage =
      '<ac:structured-macro ac:name="excerpt"><ac:rich-text-body><p>the gist</p></ac:rich-text-body></ac:structured-macro>' +
      '<ac:structured-macro ac:name="toc"><ac:parameter ac:name="maxLevel">2</ac:parameter></ac:structured-macro>';
    expect(storageToMarkdown(storage)).toBe(
      "[Confluence macro: excerpt]\n\nthe gist\n\n[Confluence macro: toc]",
    );
  });

  it("reads an unclosed tag and an unknown entity without throwing", () => {
    expect(storageToMarkdown("<p>open <strong>bold</p><p>&bogus; end</p>")).toContain("bold");
    expect(storageToMarkdown("<p>&bogus; end</p>")).toBe("&bogus; end");
  });

  it("reads a megabyte of newlines inside emphasis in linear time", () => {
    const run = "\n".repeat(1_000_000);
    const started = performance.now();
    const markdown = storageToMarkdown(
      `<p><strong><code>a${run}b</code></strong> <em><![CDATA[${run}]]></em></p>`,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(markdown.startsWith("**`a")).toBe(true);
  });
});
