import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKbSearchTool, KB_SEARCH_LIMITS } from '../../src/tools/kb-search.js';
import { MAX_TERM_CHARS } from '../../src/tools/kb-search-lines.js';
import type { ToolContext } from '../../src/tools/tool.js';
import type { KnowledgeSourceRef } from '../../src/shared/capability-snapshot.js';

let root: string;
let ws: string;

function file(relative: string, content: string | Buffer): void {
  const path = join(ws, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function context(signal = new AbortController().signal): ToolContext {
  return { workspaceRoot: ws, snapshot: {} as ToolContext['snapshot'], signal, heartbeat: vi.fn() };
}

async function search(
  knowledge: KnowledgeSourceRef[],
  args: Record<string, unknown>,
  limits = {},
): Promise<string> {
  return createKbSearchTool(knowledge, ws, limits).run(args, context());
}

const docs: KnowledgeSourceRef[] = [{ name: 'docs', glob: 'docs/**/*.md' }];
const hitLines = (result: string): string[] =>
  result.split('\n').filter((line) => /^[^[ ].*:\d+: /.test(line));

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-kb-')));
  ws = join(root, 'ws');
  mkdirSync(ws);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('kb_search', () => {
  it('ranks exact phrase first, then most words, then path and line order', async () => {
    file('docs/a.md', 'intro\nRefund only.\nThe policy on a refund.\n');
    file('docs/b.md', 'Our REFUND POLICY is generous.\nrefund\n');
    file('docs/c.md', 'nothing here\n');
    const result = await search(docs, { query: 'refund policy' });
    expect(hitLines(result)).toEqual([
      'docs/b.md:1: Our REFUND POLICY is generous.',
      'docs/a.md:3: The policy on a refund.',
      'docs/a.md:2: Refund only.',
      'docs/b.md:2: refund',
    ]);
    expect(result).toContain('3 of 3 files searched');
    expect(result).not.toContain('[cut]');
  });

  it('searches only the named source, case-insensitively; an unknown source lists the declared ones', async () => {
    file('docs/a.md', 'alpha\n');
    file('notes/b.md', 'alpha\n');
    const knowledge = [...docs, { name: 'Notes', glob: 'notes/*.md' }];
    expect(hitLines(await search(knowledge, { query: 'alpha', source: 'notes' }))).toEqual([
      'notes/b.md:1: alpha',
    ]);
    await expect(search(knowledge, { query: 'alpha', source: 'wiki' })).rejects.toThrow(
      "unknown knowledge source 'wiki'; declared sources: docs, Notes",
    );
    await expect(search(knowledge, { query: '  ' })).rejects.toThrow(
      'query must be a non-empty string',
    );
  });

  it('takes query words as literal text and refuses overlong ones (the scan stays linear)', async () => {
    file('docs/a.md', 'a (a+)+$ pattern\nplain\n');
    expect(hitLines(await search(docs, { query: '(a+)+$' }))).toEqual([
      'docs/a.md:1: a (a+)+$ pattern',
    ]);
    const longest = 'x'.repeat(MAX_TERM_CHARS);
    expect(await search(docs, { query: longest })).toContain('No hits.');
    // A long word on text that repeats its prefix costs its length at every position.
    await expect(search(docs, { query: `${longest}y plain` })).rejects.toThrow(
      `query word '${'x'.repeat(20)}...' is ${MAX_TERM_CHARS + 1} characters long; use words of at most ${MAX_TERM_CHARS} characters`,
    );
  });

  it('hit budget: 50 hits at most, and the cut says how many were not shown', async () => {
    file('docs/many.md', Array.from({ length: 80 }, (_, i) => `match line ${i}`).join('\n'));
    const result = await search(docs, { query: 'match' });
    const hits = hitLines(result);
    expect(hits).toHaveLength(KB_SEARCH_LIMITS.maxHits);
    expect(hits[0]).toBe('docs/many.md:1: match line 0');
    expect(hits.at(-1)).toBe('docs/many.md:50: match line 49');
    expect(result).toContain(
      '[cut] hit budget: 80 lines matched, only the best 50 are shown (30 not shown)',
    );
  });

  it('keeps the best-ranked hits when the budget cuts, whatever their position', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `refund ${i}`);
    lines.push('the refund policy itself');
    file('docs/long.md', lines.join('\n'));
    const hits = hitLines(await search(docs, { query: 'refund policy' }));
    expect(hits[0]).toBe('docs/long.md:201: the refund policy itself');
    expect(hits).toHaveLength(50);
  });

  it('line budget: a long line is shown as 400 characters around its match, and reported', async () => {
    file('docs/wide.md', `${'x'.repeat(700)} needle ${'y'.repeat(500)}\n`);
    const result = await search(docs, { query: 'needle' });
    const [hit] = hitLines(result);
    const text = hit?.slice('docs/wide.md:1: '.length) ?? '';
    expect(text).toHaveLength(KB_SEARCH_LIMITS.maxLineChars);
    expect(text).toContain('needle');
    expect(result).toContain(
      '[cut] 1 hit line shortened to 400 characters (docs/wide.md:1 has 1208)',
    );
  });

  it('read budget: files past 8 MiB are not searched, and the result says how much', async () => {
    const chunk = `${'lorem ipsum '.repeat(8)}\n`.repeat(Math.ceil((5 * 1024 * 1024) / 97));
    file('docs/1.md', `${chunk}needle first\n`);
    file('docs/2.md', `needle second\n${chunk}needle unreachable\n`);
    file('docs/3.md', 'needle third\n');
    const result = await search(docs, { query: 'needle' });
    expect(hitLines(result).map((line) => line.split(': ')[1])).toEqual([
      'needle first',
      'needle second',
    ]);
    expect(result).toMatch(
      /\[cut\] read budget of 8\.0 MiB reached: docs\/2\.md \(searched \d+ of \d+ bytes\) only partly searched; 1 more file not searched, [\d.]+ MiB unread in all/,
    );
    expect(result).toContain('2 of 3 files searched');
  });

  it('read budget with a small limit counts unread bytes exactly', async () => {
    file('docs/a.md', 'word\n'.repeat(100)); // 500 bytes
    file('docs/b.md', 'word\n'.repeat(100));
    file('docs/c.md', 'word\n'.repeat(100));
    const result = await search(docs, { query: 'word' }, { maxReadBytes: 700 });
    expect(result).toContain(
      'docs/b.md (searched 200 of 500 bytes) only partly searched; 1 more file not searched, 800 bytes unread in all',
    );
  });

  it('refuses escaping globs and skips symlinks that lead out of the workspace, saying so', async () => {
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', 'secret.md'), 'needle secret\n');
    file('docs/inside.md', 'needle inside\n');
    file('other/target.md', 'needle via inner link\n');
    symlinkSync(join(root, 'outside', 'secret.md'), join(ws, 'docs', 'link.md'));
    symlinkSync(join(root, 'outside'), join(ws, 'docs', 'outdir'));
    symlinkSync(join(ws, 'other', 'target.md'), join(ws, 'docs', 'inner.md'));
    symlinkSync(join(root, 'outside'), join(ws, 'docs2'));
    const knowledge = [
      ...docs,
      { name: 'based-on-link', glob: 'docs2/*.md' },
      { name: 'abs', glob: `${root}/outside/*.md` },
      { name: 'up', glob: '../outside/*.md' },
    ];
    const result = await search(knowledge, { query: 'needle' });
    expect(hitLines(result)).toEqual([
      'docs/inner.md:1: needle via inner link',
      'docs/inside.md:1: needle inside',
    ]);
    expect(result).not.toContain('needle secret');
    expect(result).toContain('[skipped] docs/link.md: a symbolic link leads outside the workspace');
    expect(result).toContain(
      '[skipped] docs/outdir/secret.md: a symbolic link leads outside the workspace',
    );
    expect(result).toContain(
      '[skipped] docs2/secret.md: a symbolic link leads outside the workspace',
    );
    expect(result).toContain("[skipped] source 'abs': glob");
    expect(result).toContain(
      "[skipped] source 'up': glob \"../outside/*.md\" refused: it climbs out of the workspace with '..'",
    );
  });

  it('lists at most 20 skipped files by name and counts the rest', async () => {
    mkdirSync(join(root, 'outside'));
    for (let i = 0; i < 25; i += 1) {
      writeFileSync(join(root, 'outside', `s${i}.md`), 'needle\n');
      mkdirSync(join(ws, 'docs'), { recursive: true });
      symlinkSync(
        join(root, 'outside', `s${i}.md`),
        join(ws, 'docs', `s${String(i).padStart(2, '0')}.md`),
      );
    }
    const result = await search(docs, { query: 'needle' });
    expect(result.split('\n').filter((line) => line.startsWith('[skipped] docs/'))).toHaveLength(
      20,
    );
    expect(result).toContain('[skipped] ... and 5 more files not searched');
    expect(hitLines(result)).toEqual([]);
  });

  it('skips binary files loudly, handles CRLF and case changes that alter length', async () => {
    file('docs/bin.md', Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]));
    file('docs/crlf.md', 'first\r\nsecond needle\r\n');
    file('docs/turkish.md', 'İstanbul\nNEEDLE in a haystack\n');
    const result = await search(docs, { query: 'needle' });
    expect(hitLines(result)).toEqual([
      'docs/crlf.md:2: second needle',
      'docs/turkish.md:2: NEEDLE in a haystack',
    ]);
    expect(result).toContain('[skipped] 1 binary file not searched');
  });

  it('says so when no file matches the globs', async () => {
    const result = await search([{ name: 'empty', glob: 'nothing/**/*.md' }], { query: 'x' });
    expect(result).toContain('No file matches "nothing/**/*.md".');
    expect(result).toContain('No hits.');
  });

  it('heartbeats while it scans and stops between files when aborted', async () => {
    for (let i = 0; i < 5; i += 1) file(`docs/${i}.md`, 'needle\n');
    const controller = new AbortController();
    const heartbeat = vi.fn(() => {
      if (heartbeat.mock.calls.length === 2) controller.abort();
    });
    const tool = createKbSearchTool(docs, ws, { yieldEveryMs: 0 });
    await expect(
      tool.run({ query: 'needle' }, { ...context(controller.signal), heartbeat }),
    ).rejects.toThrow('kb_search was stopped before it finished');
    expect(heartbeat).toHaveBeenCalledTimes(2);
    expect(heartbeat.mock.calls[1]).toEqual([{ filesSearched: 1, bytesRead: 7 }]);
  });

  it('honours the abort signal between files', async () => {
    file('docs/a.md', 'needle\n');
    const controller = new AbortController();
    controller.abort();
    await expect(
      createKbSearchTool(docs, ws).run({ query: 'needle' }, context(controller.signal)),
    ).rejects.toThrow('kb_search was stopped');
  });
});
