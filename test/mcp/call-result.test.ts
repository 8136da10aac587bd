import { describe, expect, it } from 'vitest';
import { resultText } from '../../src/mcp-client/call-result.js';

describe('MCP results as text', () => {
  it('passes text, summarises images and binary resources, keeps text resources and links', () => {
    const out = resultText({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        {
          type: 'resource',
          resource: { uri: 'file:///b.bin', blob: 'AAAA', mimeType: 'application/zip' },
        },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c' },
      ],
    });
    expect(out.isError).toBe(false);
    expect(out.text.split('\n')).toEqual([
      'first',
      '[image image/png, 9 bytes: not shown, the model gets text only]',
      '[resource file:///a.txt]',
      'inside',
      '[resource file:///b.bin (application/zip): binary, not shown]',
      '[resource link file:///c.md (c)]',
    ]);
  });

  it('uses structured content when there is nothing else, and carries isError', () => {
    expect(resultText({ content: [], structuredContent: { sum: 3 } })).toEqual({
      text: '{"sum":3}',
      isError: false,
    });
    expect(resultText({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      text: 'bad',
      isError: true,
    });
  });
});
