import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/model-adapter.js';
import {
  createScriptedModel,
  exhaustedText,
  loadScriptedModel,
  ScriptSchema,
} from '../../src/models/scripted-model.js';
import type { ModelRequest, TranscriptEntry } from '../../src/shared/model-contract.js';
import { summaryEntry, summaryRequest } from '../../src/shared/compaction.js';

const scripts = fileURLToPath(new URL('../fixtures/models/scripts/', import.meta.url));

function request(transcript: TranscriptEntry[]): ModelRequest {
  return { system: 'You are a test.', transcript, tools: [] };
}

const task: TranscriptEntry = { role: 'user', content: 'tidy the notes' };

describe('scripted model', () => {
  const model = loadScriptedModel(`${scripts}two-turns.yaml`, { displayPath: 'scripts/two.yaml' });

  it('is labelled as scripted, in the adapter and in every response', async () => {
    expect(model.label).toBe('scripted:scripts/two.yaml (scripted model)');
    const response = await model.complete(request([task]), {});
    expect(response.modelLabel).toBe('scripted:scripts/two.yaml (scripted model)');
  });

  it('replays the first turn with deterministic ids and ${task} substituted', async () => {
    const response = await model.complete(request([task]), {});
    expect(response).toEqual({
      text: 'Reading the notes for: tidy the notes',
      toolCalls: [
        { id: 'call_0_0', name: 'read', arguments: { path: 'notes.md', note: 'tidy the notes' } },
        { id: 'call_0_1', name: 'glob', arguments: { pattern: '**/*.md' } },
      ],
      modelLabel: model.label,
      finishReason: 'tool_calls',
      // About four characters a token: 'You are a test.' + '[]' + 'tidy the notes' is 31.
      usage: {
        inputTokens: 8,
        outputTokens: Math.ceil(
          (response.text.length + JSON.stringify(response.toolCalls).length) / 4,
        ),
        cachedInputTokens: 0,
      },
    });
    // Deterministic: a retried call counts the same.
    expect((await model.complete(request([task]), {})).usage).toEqual(response.usage);
  });

  it('picks the turn from the number of assistant entries (stateless)', async () => {
    const afterFirst: TranscriptEntry[] = [
      task,
      { role: 'assistant', content: 'Reading', toolCalls: [] },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'read', content: 'A', isError: false },
      { role: 'tool', toolCallId: 'call_0_1', toolName: 'glob', content: 'B', isError: false },
    ];
    // A fresh adapter instance (another worker after a crash) gives the same answer.
    const fresh = loadScriptedModel(`${scripts}two-turns.yaml`, { displayPath: 'x' });
    for (const adapter of [model, fresh]) {
      const response = await adapter.complete(request(afterFirst), {});
      expect(response.text).toBe('Done with tidy the notes. Last result: B');
      expect(response.toolCalls).toEqual([]);
    }
  });

  it('answers a final text once the script is exhausted', async () => {
    const transcript: TranscriptEntry[] = [
      task,
      { role: 'assistant', content: 'one', toolCalls: [] },
      { role: 'user', content: 'more' },
      { role: 'assistant', content: 'two', toolCalls: [] },
      { role: 'user', content: 'and more' },
    ];
    const response = await model.complete(request(transcript), {});
    expect(response.text).toBe('[scripted model] script exhausted after 2 turns');
    expect(response.text).toBe(exhaustedText(2));
    expect(response.toolCalls).toEqual([]);
  });

  it('does not interpret $ patterns inside the task', async () => {
    const inline = createScriptedModel({ turns: [{ text: '<${task}>', toolCalls: [] }] });
    const response = await inline.complete(request([{ role: 'user', content: "$& $' $1" }]), {});
    expect(response.text).toBe("<$& $' $1>");
  });

  it('substitutes ${lastUserMessage}: the latest user message, the task when none followed', async () => {
    const inline = createScriptedModel({
      turns: [
        { text: 'first: ${lastUserMessage}', toolCalls: [] },
        { text: 'then: ${lastUserMessage} (task ${task})', toolCalls: [] },
      ],
    });
    expect((await inline.complete(request([task]), {})).text).toBe('first: tidy the notes');
    const steered = await inline.complete(
      request([
        task,
        { role: 'assistant', content: 'ok', toolCalls: [] },
        { role: 'user', content: 'also the drafts' },
      ]),
      {},
    );
    expect(steered.text).toBe('then: also the drafts (task tidy the notes)');
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(model.complete(request([task]), { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});

describe('scripted model across a compaction', () => {
  const script = createScriptedModelFrom({
    contextTokens: 2000,
    turns: [{ text: 'one', toolCalls: [{ name: 'read' }] }, { text: 'two' }, { text: 'three' }],
  });
  const summary: TranscriptEntry = summaryEntry(2, 'earlier');

  it('counts the rounds a summary replaced when it picks the turn', async () => {
    expect(script.contextTokens).toBe(2000);
    expect((await script.complete(request([task, summary]), {})).text).toBe('three');
  });

  it("answers a summary request with its default summary, or the script's summary", async () => {
    const rounds: TranscriptEntry[] = [
      task,
      { role: 'assistant', content: 'one', toolCalls: [{ id: 'c', name: 'read', arguments: {} }] },
      { role: 'tool', toolCallId: 'c', toolName: 'read', content: 'A', isError: false },
    ];
    const answer = await script.complete(request(summaryRequest(rounds)), {});
    expect(answer).toMatchObject({
      text: '[scripted model] summary of 1 rounds; tool calls: read x1',
      toolCalls: [],
    });
    const own = createScriptedModelFrom({
      summary: 'I did ${rounds} rounds',
      turns: [{ text: 'x' }],
    });
    expect((await own.complete(request(summaryRequest([...rounds, summary])), {})).text).toBe(
      'I did 3 rounds',
    );
  });
});

describe('loadScriptedModel validation', () => {
  it('names the file and the bad field', () => {
    const file = `${scripts}bad-field.yaml`;
    expect(() => loadScriptedModel(file)).toThrow(ModelConfigError);
    expect(() => loadScriptedModel(file)).toThrow(file);
    expect(() => loadScriptedModel(file)).toThrow(/turns\.1\.toolCalls\.0\.name/);
  });

  it('refuses unknown keys (a typo would otherwise silently drop tool calls)', () => {
    expect(() => loadScriptedModel(`${scripts}unknown-key.yaml`)).toThrow(/turns\.0.*toolcalls/s);
  });

  it('reports invalid YAML and a missing file with the path', () => {
    expect(() => loadScriptedModel(`${scripts}not-yaml.txt`)).toThrow(
      /not-yaml\.txt: not valid YAML/,
    );
    expect(() => loadScriptedModel(`${scripts}missing.yaml`)).toThrow(
      /missing\.yaml: cannot read the script/,
    );
  });

  it('reads an edited script again, and refuses it once it turns invalid', async () => {
    // Parsed scripts are kept by path and text: the same path with new text is parsed anew.
    const dir = mkdtempSync(join(tmpdir(), 'deputy-script-'));
    try {
      const file = join(dir, 'edited.yaml');
      writeFileSync(file, 'turns:\n  - text: first version\n');
      const before = await loadScriptedModel(file).complete(request([task]), {});
      writeFileSync(file, 'turns:\n  - text: second version\n');
      const after = await loadScriptedModel(file).complete(request([task]), {});
      expect([before.text, after.text]).toEqual(['first version', 'second version']);
      writeFileSync(file, 'turns: []\n');
      expect(() => loadScriptedModel(file)).toThrow(/edited\.yaml is invalid/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty script and an empty turn', () => {
    expect(() => createScriptedModelFrom({ turns: [] })).toThrow();
    expect(() => createScriptedModelFrom({ turns: [{}] })).toThrow(/a turn needs a text/);
  });
});

function createScriptedModelFrom(raw: unknown) {
  const parsed = ScriptSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  return createScriptedModel(parsed.data);
}
