/**
 * The save's state: whether Save was pressed yet, the server's issues from its last refusal,
 * and how the last save went. An edit withdraws a refusal, and the server's issues on the
 * fields it changed (they are about what is no longer there).
 */
import { useState } from 'react';
import type { ApiIssue } from '../../../api/client';
import type { AgentDetail } from '../../../api/types';
import { locate } from '../diagnostics';
import { saveAgent, type SaveInput } from './save-agent';

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

export function useSave(onSaved: (agent: AgentDetail | null) => void) {
  const [attempted, setAttempted] = useState(false);
  const [serverIssues, setServerIssues] = useState<ApiIssue[]>([]);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });

  function edited(fields: readonly string[]): void {
    setServerIssues((now) =>
      now.filter((issue) => !fields.includes(locate(issue.path, null).field ?? '')),
    );
    clearRefusal();
  }

  function clearRefusal(): void {
    if (save.kind === 'refused') setSave({ kind: 'idle' });
  }

  async function submit(input: SaveInput): Promise<void> {
    setAttempted(true);
    setSave({ kind: 'saving' });
    const outcome = await saveAgent(input);
    if (outcome.kind === 'saved') {
      setSave({ kind: 'idle' });
      onSaved(outcome.agent);
      return;
    }
    if (outcome.kind === 'failed') {
      setSave(outcome);
      return;
    }
    if (outcome.issues !== undefined) setServerIssues(outcome.issues);
    setSave({ kind: 'refused', message: outcome.message });
  }

  return { attempted, serverIssues, save, edited, clearRefusal, submit };
}
