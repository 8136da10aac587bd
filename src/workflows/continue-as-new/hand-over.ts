/** How a workflow hands over to a fresh run. Sandbox code. */
import { allHandlersFinished, condition, continueAsNew, type Workflow } from '@temporalio/workflow';

/**
 * Continues as new once every handler has finished, so no update or signal is cut off halfway.
 * The arguments are built only then: what a handler changed while it ran is carried over too.
 */
export async function handOverWhenIdle<F extends Workflow>(
  argumentsOf: () => Parameters<F>,
): Promise<never> {
  await condition(allHandlersFinished);
  return continueAsNew<F>(...argumentsOf());
}
