/**
 * An MCP tool result as the model adapters take it: text. Text blocks pass as they are; images,
 * audio and binary resources are summarised with a note saying what was left out (never dropped
 * silently); a text resource passes with its URI; structured content, when the server sends only
 * that, as JSON.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpResultText {
  text: string;
  /** The server said the call failed (`isError`): the model reads it as a tool failure. */
  isError: boolean;
}

export function resultText(result: CallToolResult): McpResultText {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(
          `[${block.type} ${block.mimeType}, ${approximateBytes(block.data)} bytes: not shown, the model gets text only]`,
        );
        break;
      case 'resource': {
        const { resource } = block;
        parts.push(
          'text' in resource && typeof resource.text === 'string'
            ? `[resource ${resource.uri}]\n${resource.text}`
            : `[resource ${resource.uri}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}: binary, not shown]`,
        );
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
        break;
      default:
        parts.push(`[${(block as { type: string }).type} content: not shown]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return { text: parts.join('\n'), isError: result.isError === true };
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
