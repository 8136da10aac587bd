/**
 * A worker refuses to start on a namespace that lacks one of deputy's search attributes: a
 * workflow that upserts an unregistered attribute fails its workflow task over and over, so a
 * delegation would hang instead of a start failing with the command that fixes it.
 */
import type { NativeConnection } from '@temporalio/worker';
import { DeputyError } from '../errors.js';
import {
  CUSTOM_SEARCH_ATTRIBUTES,
  SEARCH_ATTRIBUTE_TYPE_NAMES,
} from '../shared/workflow-contract/search-attributes.js';

/**
 * Throws a DeputyError naming every missing attribute and how to register it. When the list
 * cannot be read (a cluster that does not let workers use the operator API), `warn` is told and
 * the worker starts: the check is a guard, not a dependency.
 */
export async function assertSearchAttributes(
  connection: NativeConnection,
  namespace: string,
  warn: (message: string) => void,
): Promise<void> {
  let known: string[];
  try {
    const response = await connection.operatorService.listSearchAttributes({ namespace });
    known = Object.keys(response.customAttributes ?? {});
  } catch (error) {
    warn(
      `could not list the search attributes of namespace ${namespace} (${(error as Error).message}); make sure deputy's are registered: ${CUSTOM_SEARCH_ATTRIBUTES.map((key) => key.name).join(', ')}`,
    );
    return;
  }
  const missing = CUSTOM_SEARCH_ATTRIBUTES.filter((key) => !known.includes(key.name));
  if (missing.length === 0) return;
  const commands = missing.map(
    (key) =>
      `  temporal operator search-attribute create --namespace ${namespace} --name ${key.name} --type ${SEARCH_ATTRIBUTE_TYPE_NAMES[key.type]}`,
  );
  throw new DeputyError(
    'invalid',
    `namespace ${namespace} lacks deputy's search attribute(s) ${missing.map((key) => key.name).join(', ')}: delegations would fail to update them. Register them, then start the worker again:\n${commands.join('\n')}`,
  );
}
