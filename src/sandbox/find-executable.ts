import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The first executable file named `name` in the folders of `searchPath` (a `PATH` value). */
export function findExecutable(name: string, searchPath: string): string | undefined {
  for (const folder of searchPath.split(':')) {
    // An empty or relative entry would search the worker's current folder: never trusted here.
    if (!path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here: the next folder.
    }
  }
  return undefined;
}
