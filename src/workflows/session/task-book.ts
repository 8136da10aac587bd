/**
 * A session's children: every delegation its Task started, kept current by the
 * children's own reports. Sandbox code: deterministic, no I/O.
 */
import type { DelegationResult } from '../../shared/delegation.js';
import type { ChildReport } from '../../shared/session.js';
import type { SessionTask } from '../../shared/delegation.js';

/** Tasks kept across continue-as-new; older finished ones stay in earlier runs' histories. */
export const CARRIED_FINISHED_TASKS = 100;

export class TaskBook {
  private readonly tasks = new Map<string, SessionTask>();

  constructor(carried: SessionTask[] = []) {
    for (const task of carried) this.tasks.set(task.taskId, task);
  }

  add(task: SessionTask): void {
    this.tasks.set(task.taskId, task);
  }

  get(taskId: string): SessionTask | undefined {
    return this.tasks.get(taskId);
  }

  list(): SessionTask[] {
    return [...this.tasks.values()];
  }

  running(): SessionTask[] {
    return this.list().filter((task) => task.result === null);
  }

  /**
   * Applies a running child's progress or card report; returns its task, or null for an unknown
   * or finished one. A child's end goes through `settle` (the session records it on its stream).
   */
  apply(report: Exclude<ChildReport, { kind: 'finished' }>): SessionTask | null {
    const task = this.tasks.get(report.taskId);
    if (task === undefined || task.result !== null) return null;
    switch (report.kind) {
      case 'progress':
        // A task with a card pending is parked, whatever the child's last progress said.
        task.status = task.pendingCards > 0 ? 'parked' : report.status;
        task.roundsUsed = report.roundsUsed;
        if (report.text !== '') task.lastText = report.text;
        if (report.usage !== undefined) task.usage = report.usage;
        break;
      case 'card-opened':
        task.pendingCards += 1;
        task.status = 'parked';
        break;
      case 'card-decided':
        task.pendingCards = Math.max(0, task.pendingCards - 1);
        if (task.pendingCards === 0) task.status = 'running';
        break;
    }
    return task;
  }

  /** Records a child's end (its report, or a foreground child's own result). */
  settle(task: SessionTask, result: DelegationResult): void {
    task.result = result;
    task.status = result.status;
    task.roundsUsed = result.roundsUsed;
    task.pendingCards = 0;
    task.lastText = result.text;
  }

  carryOver(): SessionTask[] {
    const running = this.running();
    const finished = this.list().filter((task) => task.result !== null);
    return [...finished.slice(-CARRIED_FINISHED_TASKS), ...running];
  }
}
