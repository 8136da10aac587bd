import type { TranscriptEntry } from '../shared/model-contract.js';

const WIDTH = 120;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > WIDTH ? `${flat.slice(0, WIDTH - 1)}…` : flat;
}

/** One short line per transcript entry, for the `state` query and ops views. */
export function summarizeEntry(entry: TranscriptEntry): string {
  switch (entry.role) {
    case 'user':
      return `user: ${clip(entry.content)}`;
    case 'assistant': {
      const calls = entry.toolCalls.map((call) => call.name).join(', ');
      return `assistant: ${clip(entry.content)}${calls ? ` -> ${calls}` : ''}`;
    }
    case 'tool':
      return `${entry.toolName}${entry.isError ? ' (error)' : ''}: ${clip(entry.content)}`;
  }
}
